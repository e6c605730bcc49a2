import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { createHostedSessionsRepository } from './hosted-sessions.repository.js';
import { hostedSessionRoutes } from './hosted-sessions.routes.js';
import type { CallbackOriginCheck } from './contract.js';
import { createHostedSessionsService } from './hosted-sessions.service.js';

export interface HostedSessionsModuleDeps {
  db: Db;
  publicBaseUrl: string;
  now?: () => Date;
  /** The CSRF key of the hosted pages' forms (an instance key). */
  csrfKey?: () => Promise<Buffer>;
  /** The platforms' callback-origin rule (platforms/callback-origins.ts). */
  callbackOrigins: CallbackOriginCheck;
  /** How long a session link may wait to be opened (HOSTED_SESSION_TTL_SECONDS). */
  linkTtlSeconds: number;
}

/** Hosted-session links, the browser sessions behind them, and the link exchange route. */
export function createHostedSessionsModule(deps: HostedSessionsModuleDeps) {
  const { db } = deps;
  const sessions = createHostedSessionsService({
    repository: createHostedSessionsRepository(db),
    repositoryFor: createHostedSessionsRepository,
    transaction: (work) => db.transaction().execute((trx) => work(createHostedSessionsRepository(trx))),
    publicBaseUrl: deps.publicBaseUrl,
    callbackOrigins: deps.callbackOrigins,
    linkTtlSeconds: deps.linkTtlSeconds,
    ...(deps.now && { now: deps.now }),
    ...(deps.csrfKey && { csrfKey: deps.csrfKey }),
  });
  const jobs: JobDefinition[] = [];
  return {
    sessions,
    jobs,
    /** Secure cookies whenever links are https, and always in production. */
    routes: (http: { secureCookies: boolean; publicOrigin: string }): FastifyPluginAsync =>
      hostedSessionRoutes({ sessions, secureCookies: http.secureCookies, publicOrigin: http.publicOrigin }),
  };
}

export type HostedSessionsModule = ReturnType<typeof createHostedSessionsModule>;
