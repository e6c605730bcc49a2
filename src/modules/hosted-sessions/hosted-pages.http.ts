import { parse as parseCookieHeader } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageErrors } from '../../http/error-handler.js';
import type { HostedPurpose } from '../../db/schema.js';
import { RawBody } from '../../http/body-parsers.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { SESSION_COOKIE, type HostedContext, type HostedSessionsService } from './contract.js';

export type { HostedContext } from './contract.js';

declare module 'fastify' {
  interface FastifyRequest {
    hosted: HostedContext | null;
  }
}

const UNDECODABLE = '';

/** A cookie whose value is not valid percent-encoding is treated as absent (it cannot be one of ours). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies = parseCookieHeader(header ?? '', {
    decode: (value) => {
      try {
        return decodeURIComponent(value);
      } catch {
        return UNDECODABLE;
      }
    },
  });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(cookies)) if (value !== undefined && value !== UNDECODABLE) out[name] = value;
  return out;
}

export function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/hosted; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/**
 * No third-party requests, no inline script or style, no framing, no referrer (links hold secrets);
 * forms may post only to us and, for the final redirect, to the platform's callback origin.
 */
export function sendPage(reply: FastifyReply, html: string, options: { status?: number; formTarget?: string | null } = {}) {
  const formAction = ["'self'", options.formTarget ? new URL(options.formTarget).origin : null].filter(Boolean).join(' ');
  return reply
    .code(options.status ?? 200)
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

const ERROR_PAGES: Record<number, { title: string; body: string }> = {
  413: { title: 'That was too large', body: 'Go back, shorten what you entered and try again.' },
  429: { title: 'Too many requests', body: 'Wait a minute, then try again.' },
  503: { title: 'Please try again in a moment', body: 'The service is busy right now.' },
};

/** Errors of the hosted pages (a bad filter, a body over the limit, …) are pages too: a person reads them. */
export const hostedPageErrors: PageErrors = {
  matches: (request) => (request.routeOptions.url ?? '').startsWith('/hosted/'),
  send: (reply, status, headers) => {
    const page =
      ERROR_PAGES[status] ??
      (status < 500
        ? { title: 'This address is not valid', body: 'Something in the address or the form could not be read. Go back and try again.' }
        : { title: 'Something went wrong', body: 'Please try again later.' });
    return sendPage(reply.headers(headers), renderMessagePage(page), { status });
  },
};

export const EXPIRED_MESSAGE = {
  title: 'This link has expired',
  body: 'Links to this page work once and for a limited time. Ask your platform for a new one.',
};

/** Form fields of a hosted page POST (urlencoded). */
export function formOf(request: FastifyRequest): Record<string, string> {
  return request.body instanceof RawBody && request.body.form ? request.body.form : {};
}

/**
 * A preHandler for hosted pages: a live browser session of one of these purposes, and for every POST a
 * valid CSRF token and (when the browser sends one) a same-origin Origin header (HostedSessionsService.check).
 */
export function requireHostedSession(
  deps: { sessions: Pick<HostedSessionsService, 'check'>; publicOrigin: string },
  purposes: HostedPurpose[],
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = await deps.sessions.check({
      cookieToken: parseCookies(request.headers.cookie)[SESSION_COOKIE],
      purposes,
      ...(request.method === 'POST' && { post: { sameOrigin: isSameOrigin(request, deps.publicOrigin), csrf: formOf(request)._csrf } }),
    });
    if (access.state === 'ended')
      return sendPage(reply, renderMessagePage({ ...EXPIRED_MESSAGE, title: 'Your session has ended' }), { status: 401 });
    if (access.state === 'forbidden')
      return sendPage(reply, renderMessagePage({ title: 'This form has expired', body: 'Reload the page and try again.' }), {
        status: 403,
      });
    request.hosted = access.context;
  };
}

/** Our pages send no referrer, so browsers post with `Origin: null`; Sec-Fetch-Site then says where from. */
export function isSameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  return origin === 'null' ? site === undefined || site === 'same-origin' : !origin || origin === publicOrigin;
}

export const hostedOf = (request: FastifyRequest) => request.hosted as HostedContext;

/** The callback gets the entity id and an outcome appended to whatever query it already has. */
export function callbackTarget(callbackUrl: string, legalEntityId: string, status: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('legal_entity_id', legalEntityId);
  url.searchParams.set('status', status);
  return url.toString();
}
