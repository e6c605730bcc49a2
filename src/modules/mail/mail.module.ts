import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';
import type { OperatorHook } from '../operators/operator-auth.js';
import { createVault, loadVaultKeys } from '../accounts/vault.js';
import { createInstanceKeys, INSTANCE_KEY, type InstanceKeys } from '../system/instance-keys.js';
import { createFileLinks } from './file-links.js';
import { createLocalFileStorage } from './file-storage.js';
import { mailOperatorRoutes } from './mail-operator.routes.js';
import { mailRoutes } from './mail.routes.js';
import { createMailService, type MailService } from './mail.service.js';

/** Where mail PDFs live by default: `<data dir>/files`. */
export const filesDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'files');

/**
 * The mail service as both the HTTP API and the CLI use it: local file store, signed links (keyed by the
 * instance key; the CLI opens it with the configured vault key, read only when a link is signed).
 */
export function createMailServiceFor(
  config: Config, db: Db, now: () => Date = () => new Date(),
  instanceKeys: InstanceKeys = createInstanceKeys(db, createVault(() => loadVaultKeys(config))),
): MailService {
  return createMailService({
    db,
    storage: createLocalFileStorage(filesDir(config)),
    links: createFileLinks({ key: () => instanceKeys.get(INSTANCE_KEY.fileLinks), publicBaseUrl: config.publicBaseUrl, ttlSeconds: config.fileUrlTtlSeconds, now }),
    maxBytes: config.mailMaxBytes,
    now,
  });
}

/** Mail: its service and every route (platform listings, downloads, documents page, operator intake). */
export async function registerMail(app: FastifyInstance, deps: {
  config: Config; db: Db; now: () => Date; auth: AuthHooks; sessions: HostedSessionsService;
  operatorAuth: OperatorHook; publicOrigin: string; instanceKeys: InstanceKeys;
}): Promise<MailService> {
  const { config } = deps;
  const mail = createMailServiceFor(config, deps.db, deps.now, deps.instanceKeys);
  await app.register(mailRoutes({
    mail, auth: deps.auth, sessions: deps.sessions,
    fileUrlTtlSeconds: config.fileUrlTtlSeconds, publicOrigin: deps.publicOrigin,
  }));
  await app.register(mailOperatorRoutes({ mail, operatorAuth: deps.operatorAuth, maxBytes: config.mailMaxBytes }));
  return mail;
}
