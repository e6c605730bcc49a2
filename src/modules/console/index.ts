import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { AuditService } from '../audit/contract.js';
import { consolePlatformRoutes } from './console-platform.routes.js';
import { consoleSessionRoutes } from './console-session.routes.js';
import { createConsoleSessionsService } from './console-sessions.service.js';
import { consoleUserRoutes } from './console-users.routes.js';
import { createConsoleUsersService } from './console-users.service.js';
import { consoleRequestLogRoutes } from './console-request-logs.routes.js';
import { consoleWebhookRoutes } from './console-webhooks.routes.js';
import { pageRenderer } from './console.pages.js';
import type { ConsoleOperations } from './console.ports.js';
import { createConsoleRepository } from './console.repository.js';

export type { ConsoleApiKeys, ConsoleOperations } from './console.ports.js';

export interface ConsoleModuleDeps {
  db: Db;
  /** Where invitation links point (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  now?: () => Date;
  /** The instance's CSRF key; only the pages need it (not the CLI). */
  csrfKey?: () => Promise<Buffer>;
  /** Every console action is recorded in the platform's console trail. */
  audit: Pick<AuditService, 'recordConsole' | 'listConsole'>;
  /** Whether a platform exists (`statehouse console invite --platform`). */
  platformExists: (platformId: string) => Promise<boolean>;
}

/** What serving the pages needs beyond the module's deps: what they act on, and the cookies' and origin checks' settings. */
export interface ConsoleRoutesDeps {
  operations: ConsoleOperations;
  publicOrigin: string;
  /** Secure cookies (and the `__Host-` prefix) whenever links are https, and always in production. */
  secureCookies: boolean;
}

/**
 * The platform console (/console, docs/console.md): a platform's own users (invited, with a password and a role),
 * their sessions, and pages over the API keys, webhooks, events, callback origins and branding of their platform.
 */
export function createConsoleModule(deps: ConsoleModuleDeps) {
  const now = deps.now ?? (() => new Date());
  const repository = createConsoleRepository(deps.db);
  const users = createConsoleUsersService({
    db: deps.db,
    repositoryFor: createConsoleRepository,
    audit: deps.audit,
    publicBaseUrl: deps.publicBaseUrl,
    now,
    platformExists: deps.platformExists,
  });
  const sessions = createConsoleSessionsService({
    repository,
    audit: deps.audit,
    now,
    csrfKey: deps.csrfKey ?? (() => Promise.reject(new Error('no CSRF key given to the console module'))),
  });
  return {
    users,
    sessions,
    jobs: [] as JobDefinition[],
    routes: (serving: ConsoleRoutesDeps) => async (app: FastifyInstance) => {
      const ops = serving.operations;
      const http = { sessions, publicOrigin: serving.publicOrigin, secureCookies: serving.secureCookies };
      const page = pageRenderer(ops.platformName);
      app.decorateRequest('console', null);
      await app.register(consoleSessionRoutes({ ...http, sessions, users }));
      await app.register(consoleUserRoutes({ ...http, page, users, platform: ops, audit: deps.audit }));
      await app.register(
        consolePlatformRoutes({ ...http, page, keys: ops.keys, origins: ops.origins, brands: ops.brands, audit: deps.audit }),
      );
      await app.register(consoleWebhookRoutes({ ...http, page, ...ops, audit: deps.audit }));
      await app.register(consoleRequestLogRoutes({ ...http, page, requestLogs: ops.requestLogs }));
    },
  };
}

export type ConsoleModule = ReturnType<typeof createConsoleModule>;
