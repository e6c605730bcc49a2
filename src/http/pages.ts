// What every HTML page (hosted pages, the back office) needs of HTTP: its headers, its form, cookies and origin checks.
import { parse as parseCookieHeader } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RawBody } from './body-parsers.js';
import { callbackCspSource } from '../lib/callback-url.js';

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

/**
 * No third-party requests, no inline script or style, no framing, no referrer (links hold secrets);
 * forms may post only to us and, for the final redirect, to the platform's callback origin.
 */
export function sendPage(reply: FastifyReply, html: string, options: { status?: number; formTarget?: string | null } = {}) {
  const formAction = ["'self'", options.formTarget ? callbackCspSource(options.formTarget) : null].filter(Boolean).join(' ');
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

/** Form fields of a page POST (urlencoded). */
export function formOf(request: FastifyRequest): Record<string, string> {
  return request.body instanceof RawBody && request.body.form ? request.body.form : {};
}

/** Our pages send no referrer, so browsers post with `Origin: null`; Sec-Fetch-Site then says where from. */
export function isSameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  return origin === 'null' ? site === undefined || site === 'same-origin' : !origin || origin === publicOrigin;
}

/** The callback gets the entity id and an outcome appended to whatever query it already has. */
export function callbackTarget(callbackUrl: string, legalEntityId: string, status: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('legal_entity_id', legalEntityId);
  url.searchParams.set('status', status);
  return url.toString();
}
