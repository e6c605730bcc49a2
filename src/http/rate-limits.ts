import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimits } from '../config.js';
import type { Db } from '../db/database.js';
import { describeDatabaseError, isDatabaseError } from '../db/unavailable.js';
import { HttpError } from '../lib/errors.js';
import { createSharedRateLimitCounters } from './shared-rate-limit-counters.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'authentication': a token-issuing operation, also counted against the stricter authentication limit. */
    rateLimitClass?: 'authentication';
  }
}

/** Probes must answer whatever a client does. */
export const UNLIMITED_ROUTES = new Set(['/healthz', '/readyz']);

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A hash of the whole Authorization header names the API key or token: the secret itself is never
 * kept (nor logged), and a guessed credential is just another key (failed guesses are counted per address).
 */
function credentialOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header ? createHash('sha256').update(header).digest('base64url').slice(0, 22) : null;
}

const tooMany = (retryAfter: number, what: string) =>
  new HttpError(429, `${what}; retry in ${retryAfter} seconds`, { 'retry-after': String(retryAfter) });

/**
 * Rate limits: per credential, per address without one, a stricter limit on token-issuing operations, and
 * failed authentications (401s) per address, past which the address is refused before any check. Given the
 * database, the counts are shared by every process of the installation (shared-rate-limit-counters.ts: no
 * write per request, a bounded overshoot); without it, each process counts in its own memory.
 */
export async function registerRateLimits(app: FastifyInstance, limits: RateLimits, db?: Db): Promise<void> {
  // A database error is a reason, not a stack (the outage itself is logged once elsewhere: db/unavailable.ts).
  const reportError = (error: unknown) =>
    app.log.warn(
      isDatabaseError(error) ? { reason: describeDatabaseError(error) } : { err: error },
      'rate-limit counters: the shared counts could not be read or written; counting locally meanwhile',
    );
  const shared = db ? createSharedRateLimitCounters(db, reportError, { firstReadWaitMs: limits.sharedReadWaitMs }) : null;
  await app.register(rateLimit, {
    global: false,
    timeWindow: limits.windowSeconds * 1000,
    cache: 20_000,
    ...(shared && { store: shared.store }),
  });
  if (shared) {
    shared.start();
    app.addHook('onClose', async () => shared.stop());
  }
  // The shared store holds every limiter's counts: the limiter's name is part of each key.
  const limiter = (name: string, max: number, key: (request: FastifyRequest) => string): Limiter | null =>
    max > 0 ? app.createRateLimit({ max, keyGenerator: (request) => `${name}:${key(request)}` }) : null;
  const byCredentialOrAddress = (request: FastifyRequest) => {
    const credential = credentialOf(request);
    return credential ? `c:${credential}` : `a:${request.ip}`;
  };
  const perCredential = limiter('requests', limits.perCredential, byCredentialOrAddress);
  const perAddress = limiter('anonymous', limits.perAddress, byCredentialOrAddress);
  const authOperations = limiter('auth', limits.authOperations, byCredentialOrAddress);
  const failedAuth = limiter('failed', limits.failedAuth, (request) => `f:${request.ip}`);

  const check = async (request: FastifyRequest, limit: Limiter | null, what: string, increment = true) => {
    if (!limit) return;
    const result = await limit(request, { increment });
    if (!result.isAllowed && result.isExceeded) throw tooMany(Math.max(1, result.ttlInSeconds), what);
  };

  // A root hook: it runs before every route's own hooks (authentication included) and for unknown paths.
  app.addHook('onRequest', async (request) => {
    if (UNLIMITED_ROUTES.has(request.routeOptions.url ?? '')) return;
    await check(request, failedAuth, 'Too many failed authentication attempts from this address', false);
    await check(request, request.headers.authorization ? perCredential : perAddress, 'Too many requests');
    if (request.routeOptions.config?.rateLimitClass === 'authentication') {
      await check(request, authOperations, 'Too many authentication requests');
    }
  });
  // A refused request whose body has not arrived yet (a 401 before the body, a 429, a 503): close the
  // connection rather than read and discard what is left of the body (up to the body limit).
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400 && !request.raw.complete) reply.header('connection', 'close');
  });
  // Counted after the answer is sent: costs the client's request nothing.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 401 && failedAuth) await failedAuth(request);
  });
}
