import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, RequestValidationError } from '../../lib/errors.js';
import { formOf, isSameOrigin, parseCookies, sendPage } from '../../http/pages.js';
import { sessionCookie, sessionCookieName } from '../../http/page-sessions.js';
import { renderOperatorMessage } from '../../pages/operator-pages.js';
import type { OperatorPageContext, OperatorSessionsService } from './operator-sessions.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the back office's session hook: the signed-in operator, the session and its CSRF token. */
    backOffice: OperatorPageContext | null;
  }
}

/** The back office's cookie (http/page-sessions.ts). SameSite=Strict: no other site can make a browser send it. */
const OPERATOR_COOKIE = { base: 'statehouse_operator', sameSite: 'Strict' } as const;

export const operatorCookieName = (secure: boolean) => sessionCookieName(OPERATOR_COOKIE.base, secure);

export const operatorCookie = (secure: boolean, token: string, maxAgeSeconds: number) =>
  sessionCookie(OPERATOR_COOKIE, secure, token, maxAgeSeconds);

export const clearOperatorCookie = (secure: boolean) => operatorCookie(secure, '', 0);

export const backOfficeOf = (request: FastifyRequest) => request.backOffice as OperatorPageContext;

export interface BackOfficeHttp {
  sessions: Pick<OperatorSessionsService, 'check'>;
  publicOrigin: string;
  secureCookies: boolean;
}

/**
 * A preHandler for back-office pages: the operator's session cookie and nothing else (an Authorization
 * header, a platform key, an access token or a hosted-page cookie opens nothing here). Without a live
 * session a GET goes to the sign-in page and a POST is refused; a POST also needs the same origin and the
 * session's CSRF token.
 */
export function requireOperatorSession(deps: BackOfficeHttp) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = await deps.sessions.check({
      cookieToken: parseCookies(request.headers.cookie)[operatorCookieName(deps.secureCookies)],
      ...(request.method === 'POST' && {
        post: { sameOrigin: isSameOrigin(request, deps.publicOrigin), csrf: formFieldOf(request, '_csrf') },
      }),
    });
    if (access.state === 'ended') {
      if (request.method === 'GET') return reply.header('cache-control', 'no-store').redirect('/operator/sign-in', 303);
      return sendPage(
        reply,
        renderOperatorMessage({ title: 'You are signed out', body: 'Your session has ended. Sign in again.', signInLink: true }),
        { status: 401 },
      );
    }
    if (access.state === 'forbidden') {
      return sendPage(reply, renderOperatorMessage({ title: 'This form has expired', body: 'Reload the page and try again.' }), {
        status: 403,
      });
    }
    request.backOffice = access.context;
  };
}

/** A field of a back-office form post, urlencoded or (outcome form) multipart. */
export function formFieldOf(request: FastifyRequest, name: string): string | undefined {
  const body = request.body;
  if (body instanceof MultipartForm) {
    const value = body.fields.get(name);
    return typeof value === 'string' ? value : undefined;
  }
  return formOf(request)[name];
}

/** A multipart/form-data body, parsed by the platform's FormData (the outcome form uploads a PDF). */
export class MultipartForm {
  constructor(readonly fields: FormData) {}

  text(name: string): string {
    const value = this.fields.get(name);
    return typeof value === 'string' ? value : '';
  }

  /** The uploaded file of a field, or null when none was chosen (browsers send an empty, unnamed part). */
  async file(name: string): Promise<{ fileName: string; bytes: Buffer } | null> {
    const value = this.fields.get(name);
    if (value === null || typeof value === 'string' || (value.size === 0 && value.name === '')) return null;
    return { fileName: value.name, bytes: Buffer.from(await value.arrayBuffer()) };
  }
}

/** Parses a multipart body with undici's FormData parser (Node's fetch `Response`), so no dependency is needed. */
export async function parseMultipart(contentType: string, body: Buffer): Promise<MultipartForm | null> {
  try {
    return new MultipartForm(await new Response(new Blob([new Uint8Array(body)]), { headers: { 'content-type': contentType } }).formData());
  } catch {
    return null;
  }
}

const ERROR_PAGES: Record<number, { title: string; body: string }> = {
  404: { title: 'Not found', body: 'There is nothing at this address.' },
  413: { title: 'That was too large', body: 'Go back, choose a smaller file and try again.' },
  429: { title: 'Too many requests', body: 'Wait a minute, then try again.' },
};

/** Errors of back-office pages are pages too: an operator reads them. Set on each back-office page plugin. */
export function backOfficeErrorPage(
  error: FastifyError | HttpError | RequestValidationError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  const status =
    error instanceof RequestValidationError ? 400 : error instanceof HttpError ? error.status : ((error as FastifyError).statusCode ?? 500);
  if (status >= 500) throw error; // the app's handler logs it and answers (503 for a database outage)
  const page = ERROR_PAGES[status] ?? {
    title: 'This address is not valid',
    body: 'Something in the address or the form could not be read. Go back and try again.',
  };
  return sendPage(reply, renderOperatorMessage(page), { status });
}
