import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { HostedPurpose } from '../../db/schema.js';
import type { AuthHooks } from '../../http/auth.js';
import type { EventRecorder } from '../events/contract.js';
import type { OperatorHook } from '../operators/contract.js';
import type { AuditService } from '../audit/contract.js';
import { requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { INSTANCE_KEY, type InstanceKeys } from '../system/contract.js';
import { createFileLinks } from './file-links.js';
import { createLocalFileStorage } from './file-storage.js';
import { mailJobs } from './mail.jobs.js';
import { mailOperatorRoutes } from './mail-operator.routes.js';
import { mailRoutes } from './mail.routes.js';
import { createMailService } from './mail.service.js';

/** STATEHOUSE_FILES_DIR, else `files/` in the data directory. */
const filesDir = (config: Pick<Config, 'dataDir' | 'filesDir'>) => config.filesDir ?? path.join(config.dataDir, 'files');

export interface MailModuleDeps {
  config: Config;
  db: Db;
  now?: () => Date;
  /** Keys the signed file links (the CLI opens them with the configured vault key, read only when a link is signed). */
  instanceKeys: Pick<InstanceKeys, 'get'>;
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
  const { instanceKeys } = deps;
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
  return {
    mail,
    jobs: mailJobs(mail),
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
