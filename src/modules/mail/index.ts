import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { HostedPurpose } from '../../db/schema.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { EventRecorder } from '../events/contract.js';
import { requireHostedSession } from '../hosted-sessions/hosted-http.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';
import type { OperatorHook } from '../operators/contract.js';
import type { AuditService } from '../audit/contract.js';
import { createVault, loadVaultKeys } from '../../crypto/vault.js';
import { createInstanceKeys, INSTANCE_KEY, type InstanceKeys } from '../system/instance-keys.js';
import { createFileLinks } from './file-links.js';
import { createLocalFileStorage } from './file-storage.js';
import { mailOperatorRoutes } from './mail-operator.routes.js';
import { mailRoutes } from './mail.routes.js';
import { createMailService } from './mail.service.js';

export { MAIL_TYPES } from './mail-input.js';
export type { MailService } from './mail.service.js';

/** Where mail PDFs live by default: `<data dir>/files`. */
/** STATEHOUSE_FILES_DIR, else `files/` in the data directory. */
export const filesDir = (config: Pick<Config, 'dataDir' | 'filesDir'>) => config.filesDir ?? path.join(config.dataDir, 'files');

export interface MailModuleDeps {
  config: Config;
  db: Db;
  now?: () => Date;
  /**
   * Keys the signed file links. Without it (the CLI) the instance keys are opened with the configured
   * vault key, read only when a link is signed.
   */
  instanceKeys?: InstanceKeys;
  /** mail.received, in the item's transaction (every intake path). */
  events: EventRecorder;
}

/** What the mail routes need from the HTTP application. */
export interface MailRoutesDeps {
  auth: AuthHooks;
  sessions: HostedSessionsService;
  operatorAuth: OperatorHook;
  /** Operator uploads are audited in the upload's transaction. */
  audit: Pick<AuditService, 'record'>;
  publicOrigin: string;
}

/** Mail: the local file store, signed download links, listings, the documents page, operator intake and its garbage collection. */
export function createMailModule(deps: MailModuleDeps) {
  const { config, db } = deps;
  const now = deps.now ?? (() => new Date());
  const instanceKeys =
    deps.instanceKeys ??
    createInstanceKeys(
      db,
      createVault(() => loadVaultKeys(config)),
    );
  const mail = createMailService({
    db,
    storage: createLocalFileStorage(filesDir(config)),
    links: createFileLinks({
      key: () => instanceKeys.get(INSTANCE_KEY.fileLinks),
      publicBaseUrl: config.publicBaseUrl,
      ttlSeconds: config.fileUrlTtlSeconds,
      now,
    }),
    maxBytes: config.mailMaxBytes,
    now,
    events: deps.events,
  });
  const jobs: JobDefinition[] = [
    // Daily: files a crash left without their mail row (see docs/mail.md); `statehouse mail gc` runs it now.
    // An hour before another process may take it over: a walk of a large files directory outlasts pg-boss's 15-minute default.
    { name: 'mail.gc', cron: '45 4 * * *', handler: () => mail.collectGarbage(), logRuns: true, expireInSeconds: 3600 },
  ];
  return {
    mail,
    jobs,
    /** GET /mail, /locations/{id}/mail, /v2/mail, signed file links, the documents page and its session, operator intake and listing. */
    routes: (http: MailRoutesDeps) => async (app: FastifyInstance) => {
      const hostedPage = (purposes: HostedPurpose[]) =>
        requireHostedSession({ sessions: http.sessions, publicOrigin: http.publicOrigin }, purposes);
      await app.register(
        mailRoutes({
          mail,
          auth: http.auth,
          sessions: http.sessions,
          fileUrlTtlSeconds: config.fileUrlTtlSeconds,
          hostedPage,
        }),
      );
      await app.register(mailOperatorRoutes({ mail, operatorAuth: http.operatorAuth, audit: http.audit, maxBytes: config.mailMaxBytes }));
    },
  };
}
