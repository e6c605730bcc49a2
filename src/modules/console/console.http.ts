import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, RequestValidationError } from '../../lib/errors.js';
import { formOf, isSameOrigin, parseCookies, sendPage } from '../../http/pages.js';
import { sessionCookie, sessionCookieName } from '../../http/page-sessions.js';
import { roleAllows, type ConsoleRole } from './contract.js';
import type { ConsolePageContext, ConsoleSessionsService } from './console-sessions.service.js';
import { renderConsoleMessage } from './console.views.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the console's session hook: the signed-in console user, their role, the session and its CSRF token. */
    console: ConsolePageContext | null;
  }
}

/** The console's cookie (http/page-sessions.ts). SameSite=Lax: a link from another site (an e-mail) opens the console signed in; forms still need the CSRF token. */
const CONSOLE_COOKIE = { base: 'statehouse_console', sameSite: 'Lax' } as const;

export const consoleCookieName = (secure: boolean) => sessionCookieName(CONSOLE_COOKIE.base, secure);
export const consoleCookie = (secure: boolean, token: string, maxAgeSeconds: number) =>
  sessionCookie(CONSOLE_COOKIE, secure, token, maxAgeSeconds);

export const consoleOf = (request: FastifyRequest) => request.console as ConsolePageContext;

export interface ConsoleHttp {
  sessions: Pick<ConsoleSessionsService, 'check'>;
  publicOrigin: string;
  secureCookies: boolean;
}

const formExpired = (reply: FastifyReply) =>
  sendPage(reply, renderConsoleMessage({ title: 'This form has expired', body: 'Reload the page and try again.' }), { status: 403 });

/**
 * A preHandler for console pages: the console's session cookie and nothing else (an API key, an operator key or
 * a hosted page's cookie opens nothing here). Without a live session a GET goes to the sign-in page and a POST is
 * refused (401); a POST also needs the same origin and the session's CSRF token (403), and `role` for the action
 * (403: a read-only user's post is refused even though the page shows no button for it).
 */
export function requireConsole(deps: ConsoleHttp, role: ConsoleRole = 'read_only') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = await deps.sessions.check({
      cookieToken: parseCookies(request.headers.cookie)[consoleCookieName(deps.secureCookies)],
      ...(request.method === 'POST' && { post: { sameOrigin: isSameOrigin(request, deps.publicOrigin), csrf: formOf(request)._csrf } }),
    });
    if (access.state === 'ended') {
      if (request.method === 'GET') return reply.header('cache-control', 'no-store').redirect('/console/sign-in', 303);
      return sendPage(
        reply,
        renderConsoleMessage({ title: 'You are signed out', body: 'Your session has ended. Sign in again.', signInLink: true }),
        { status: 401 },
      );
    }
    if (access.state === 'forbidden') return formExpired(reply);
    if (!roleAllows(access.context.role, role)) {
      return sendPage(
        reply,
        renderConsoleMessage({ title: 'Not allowed', body: 'Your role does not allow this. Ask an admin of your platform.' }),
        { status: 403 },
      );
    }
    request.console = access.context;
  };
}

export { formExpired };

const ERROR_PAGES: Record<number, { title: string; body: string }> = {
  404: { title: 'Not found', body: 'There is nothing at this address.' },
  409: { title: 'That cannot be done', body: '' },
  429: { title: 'Too many requests', body: 'Wait a minute, then try again.' },
};

/** Errors of console pages are pages too. Set on each console page plugin. */
export function consoleErrorPage(error: FastifyError | HttpError | RequestValidationError, _request: FastifyRequest, reply: FastifyReply) {
  const status =
    error instanceof RequestValidationError ? 400 : error instanceof HttpError ? error.status : ((error as FastifyError).statusCode ?? 500);
  if (status >= 500) throw error;
  const known = ERROR_PAGES[status];
  const page = known
    ? { title: known.title, body: known.body || error.message }
    : { title: status === 403 ? 'Not allowed' : 'This address is not valid', body: error.message || 'Go back and try again.' };
  return sendPage(reply, renderConsoleMessage(page), { status });
}
