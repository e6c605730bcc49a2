// The database and the modules a command works with: opened per command, beside a live server if one runs.
import path from 'node:path';
import { loadCatalog } from '../catalog/catalog.js';
import type { Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import type { AccountsService } from '../modules/accounts/contract.js';
import { createAccountsModule } from '../modules/accounts/index.js';
import { createVault, loadVaultKeys } from '../crypto/vault.js';
import { createEventsService } from '../modules/events/index.js';
import { createMailModule } from '../modules/mail/index.js';
import { createSystemModule } from '../modules/system/index.js';
import { plannedEntityStore } from '../modules/legal-entities/index.js';
import { createPlanningModule } from '../modules/planning/index.js';
import { createTaskEvents, plannedTaskStore } from '../modules/tasks/index.js';

export const log = (message: string) => process.stderr.write(`[statehouse] ${message}\n`);

export async function withDatabase<T>(config: Config, work: (db: DatabaseHandle) => Promise<T>, migrate = true): Promise<T> {
  // CLI commands may run beside a live server: they attach to its embedded database.
  const database = await openDatabase(config, { allowAttach: true, migrate, log });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

export function planningFor(db: DatabaseHandle['db'], config: Config, catalogDir?: string) {
  const catalog = loadCatalog(catalogDir);
  const releasesDir = catalogDir === undefined ? undefined : path.join(catalogDir, 'releases');
  const taskEvents = createTaskEvents({
    catalog,
    publicBaseUrl: config.publicBaseUrl,
    events: createEventsService(),
    ...(releasesDir && { releasesDir }),
  });
  return createPlanningModule({
    db,
    catalog,
    now: () => new Date(),
    taskEvents,
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
  });
}

export const demoExtras = (db: DatabaseHandle['db'], config: Config) => ({ accounts: accountsFor(db, config), mail: mailFor(db, config) });

export const mailFor = (db: DatabaseHandle['db'], config: Config) =>
  createMailModule({
    config,
    db,
    events: createEventsService(),
    instanceKeys: createSystemModule({ db, vault: createVault(() => loadVaultKeys(config)) }).instanceKeys,
  }).mail;

export function accountsFor(db: DatabaseHandle['db'], config: Config): AccountsService {
  return createAccountsModule({
    db,
    catalog: loadCatalog(),
    vault: createVault(() => loadVaultKeys(config)),
    events: createEventsService(),
  }).accounts;
}
