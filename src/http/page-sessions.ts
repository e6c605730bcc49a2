// What every signed-in page application (the operator back office, the platform console) shares: its session
// cookie, its CSRF tokens and their check. The sessions themselves are each application's own.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../lib/secrets.js';

/** The longest cookie token and CSRF token read at all (anything longer is not one of ours). */
export const MAX_SESSION_TOKEN = 128;
const MAX_CSRF = 100;

/**
 * A session cookie's name: over https with the `__Host-` prefix (Secure, Path=/, no Domain: no other host or path
 * can set or shadow it); over plain http (development, tests) browsers refuse that prefix, so the name is plain.
 */
export const sessionCookieName = (base: string, secure: boolean) => (secure ? `__Host-${base}` : base);

export function sessionCookie(
  cookie: { base: string; sameSite: 'Strict' | 'Lax' },
  secure: boolean,
  token: string,
  maxAgeSeconds: number,
): string {
  return `${sessionCookieName(cookie.base, secure)}=${token}; Path=/; HttpOnly; SameSite=${cookie.sameSite}; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/** A session's CSRF token: an HMAC of its id under the instance's CSRF key, prefixed per application so tokens never coincide. */
export const csrfTokenFor = (key: Buffer, purpose: string, sessionId: string) =>
  createHmac('sha256', key).update(`${purpose}:${sessionId}`).digest('base64url');

/** Whether a form's `_csrf` field is the session's token (compared in constant time). */
export function csrfMatches(sent: unknown, expected: string): boolean {
  return typeof sent === 'string' && sent.length <= MAX_CSRF && safeEqual(Buffer.from(sent), Buffer.from(expected));
}
