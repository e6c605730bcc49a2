import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../../lib/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

// Headers a reverse proxy adds: a request through a proxy on this host arrives from loopback, but is not local.
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Who may read /metrics. With a token: whoever presents it as `Authorization: Bearer <token>` (compared
 * in constant time, over digests so the length does not leak either). Without: loopback clients only,
 * and not through a forwarding proxy.
 */
export function metricsAccessCheck(token: string | null): (request: FastifyRequest) => void {
  if (token !== null) {
    const expected = digest(token);
    return (request) => {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer (\S+)$/i.exec(header) : null;
      if (!match || !timingSafeEqual(digest(match[1]!), expected)) throw new UnauthorizedError('A valid metrics token is required');
    };
  }
  return (request) => {
    const local = LOOPBACK.test(request.socket.remoteAddress ?? '') && !FORWARDING_HEADERS.some((name) => name in request.headers);
    if (!local) throw new ForbiddenError('Metrics are served only to local clients unless METRICS_TOKEN is set');
  };
}
