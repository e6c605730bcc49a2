import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { DataDirectoryBusyError } from '../db/embedded.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db/database.js';
import { loadCatalog } from '../catalog/catalog.js';
import { reencryptLoginSecrets } from '../modules/accounts/vault-rotation.js';
import { createAutomationInputRotation } from '../modules/automations/index.js';
import { createCalendarTokenRotation } from '../modules/calendar/index.js';
import { createOperatorsModule } from '../modules/operators/index.js';
import { seedDemo } from '../modules/demo/demo.js';
import { validateSecrets } from '../modules/accounts/accounts.service.js';
import { createAccountsModule, type AccountsService } from '../modules/accounts/index.js';
import { createVault, loadVaultKeys } from '../modules/accounts/vault.js';
import { createSystemModule, INSTANCE_KEY } from '../modules/system/index.js';
import { createPlanningModule } from '../modules/planning/index.js';
import { createEventsService } from '../modules/events/index.js';
import { createTaskEvents, plannedTaskStore } from '../modules/tasks/index.js';
import { createPlatformsModule } from '../modules/platforms/index.js';
import { closeOnSignals, startServer } from '../server.js';
import { checkStartMode } from '../production.js';
import { mailCommand } from './mail-command.js';
import { operatorsCommand } from './operators-command.js';
import { stopWhenNpmParentDies } from './parent-watch.js';
import { holdSignalsWhileStarting } from './start-signals.js';
import { takeEarlyStart } from './early-start.js';
import { print, UsageError } from './output.js';
import { USAGE } from './usage.js';
import { demoInstructions, demoKey } from './demo-instructions.js';
import { catalogExplain, catalogImpact, catalogList } from './catalog-command.js';
import { catalogDiff, catalogExport, catalogRelease } from './catalog-release-command.js';
import { releaseOfCatalog } from '../catalog/releases.js';
import { brandCommand, callbacksCommand, platformsCommand } from './platforms-command.js';
import { readSecretsFromStdin } from './secrets-stdin.js';
import { createMailModule } from '../modules/mail/index.js';
import { createWebhooksModule } from '../modules/webhooks/index.js';
import { webhooksCommand } from './webhooks-command.js';

const log = (message: string) => process.stderr.write(`[statehouse] ${message}\n`);

async function withDatabase<T>(config: Config, work: (db: DatabaseHandle) => Promise<T>, migrate = true): Promise<T> {
  // CLI commands may run beside a live server: they attach to its embedded database.
  const database = await openDatabase(config, { allowAttach: true, migrate, log });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      demo: { type: 'boolean', default: false },
      region: { type: 'string' },
      entity: { type: 'string' },
      platform: { type: 'string' },
      agency: { type: 'string' },
      name: { type: 'string' },
      data: { type: 'string', multiple: true },
      url: { type: 'string' },
      account: { type: 'string' },
      supported: { type: 'boolean', default: false },
      file: { type: 'string' },
      type: { type: 'string' },
      sender: { type: 'string' },
      subject: { type: 'string' },
      received: { type: 'string' },
      'key-id': { type: 'string' },
      'legal-entity': { type: 'string' },
      limit: { type: 'string' },
      before: { type: 'string' },
      action: { type: 'string' },
      'event-type': { type: 'string', multiple: true },
      reason: { type: 'string' },
      description: { type: 'string' },
      accent: { type: 'string' },
      logo: { type: 'string' },
      clear: { type: 'string', multiple: true },
      id: { type: 'string' },
      title: { type: 'string' },
      notes: { type: 'string' },
      date: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      format: { type: 'string' },
      out: { type: 'string' },
      against: { type: 'string' },
      catalog: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const json = values.json ?? false;

  switch (command) {
    case 'serve': {
      checkStartMode(config, { demo: values.demo ?? false }, (text) => process.stderr.write(text));
      const early = takeEarlyStart();
      const starting = early?.signals ?? holdSignalsWhileStarting(log);
      const server = await startServer(config, log, early?.embedded);
      closeOnSignals(server, log);
      if (starting.release()) return;
      stopWhenNpmParentDies(log);
      log(`listening on ${server.url} (API reference: ${config.publicBaseUrl}/docs)`);
      if (!values.demo) return;
      const demo = await seedDemo(server.database.db, config.publicBaseUrl, server.app.services, demoKey(config, true)).catch(
        (error: unknown) => {
          // A signal during the seeding closes the database under it: the shutdown in progress stops PostgreSQL
          // and exits; failing here would exit first and leave PostgreSQL running.
          if (server.isClosing()) return new Promise<never>(() => {});
          throw error;
        },
      );
      process.stdout.write(`\n${demoInstructions(config, demo)}\n\n`);
      return;
    }
    case 'migrate': {
      await withDatabase(
        config,
        async (database) => {
          const applied = await migrateToLatest(database.connectionString);
          print(json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
        },
        false,
      );
      return;
    }
    case 'demo': {
      const demo = await withDatabase(config, (database) =>
        seedDemo(database.db, config.publicBaseUrl, demoExtras(database.db, config), demoKey(config, false)),
      );
      print(json, demo, demoInstructions(config, demo));
      return;
    }
    case 'catalog':
      if (sub === 'list') return catalogList(values.region, json);
      if (sub === 'release') {
        return catalogRelease({
          catalogDir: values.catalog,
          id: values.id,
          title: values.title,
          notes: values.notes,
          date: values.date,
          dryRun: values['dry-run'] ?? false,
          json,
        });
      }
      if (sub === 'diff') return catalogDiff(rest[0], rest[1], { catalogDir: values.catalog, json });
      if (sub === 'export') {
        const catalogDir = values.catalog;
        return catalogExport({
          format: values.format,
          out: values.out,
          catalogDir,
          release: releaseOfCatalog(loadCatalog(catalogDir), catalogDir && path.join(catalogDir, 'releases')),
        });
      }
      if (sub === 'impact') {
        await withDatabase(config, async (database) =>
          catalogImpact(planningFor(database.db, config, values.catalog).planning, {
            against: values.against,
            catalogDir: values.catalog,
            json,
          }),
        );
        return;
      }
      if (sub === 'explain' && rest[0]) {
        await withDatabase(config, async (database) => catalogExplain(planningFor(database.db, config).planning, rest[0]!, json));
        return;
      }
      throw new UsageError('Unknown catalog command; see statehouse --help');
    case 'tasks':
      if (sub !== 'roll-forward') throw new UsageError('Unknown tasks command; see statehouse --help');
      await withDatabase(config, async (database) => {
        const result = await planningFor(database.db, config).rollForward();
        print(json, result, `rolled forward ${result.entities} legal entities, ${result.created} new tasks`);
      });
      return;
    case 'platforms':
      await withDatabase(config, (database) => {
        const { platforms, callbackOrigins, brands } = createPlatformsModule({ db: database.db });
        if (sub === 'brand') return brandCommand(brands, rest, values, json);
        return sub === 'callbacks'
          ? callbacksCommand(platforms, callbackOrigins, rest, json)
          : platformsCommand(platforms, sub, rest, json);
      });
      return;
    case 'operators':
      await withDatabase(config, (database) =>
        operatorsCommand(createOperatorsModule({ db: database.db, publicBaseUrl: config.publicBaseUrl }), sub, rest, values, json),
      );
      return;
    case 'accounts': {
      if (sub !== 'create' || !rest[0]) throw new UsageError('Unknown accounts command; see statehouse --help');
      if (!values.region || !values.agency || !values.name) throw new UsageError('accounts create needs --region, --agency and --name');
      const data = (values.data ?? []).map((pair) => {
        const at = pair.indexOf('=');
        if (at <= 0) throw new UsageError(`--data takes name=value (got '${pair}')`);
        return { name: pair.slice(0, at), value: pair.slice(at + 1) };
      });
      const input = { region_code: values.region, agency_id: values.agency, name: values.name, data };
      await withDatabase(config, async (database) => {
        const account = await accountsFor(database.db, config).createAccount(rest[0]!, input);
        print(
          json,
          {
            agency_account_id: account.id,
            legal_entity_id: account.legal_entity_id,
            region: account.region_code,
            agency_id: account.agency_id,
            name: account.name,
            data: account.data,
          },
          `Created agency account ${account.id} (${account.region_code}, ${account.agency_id}): ${account.name}`,
        );
      });
      return;
    }
    case 'mail':
      await withDatabase(config, (database) => mailCommand(mailFor(database.db, config), config.mailMaxBytes, sub, values, json));
      return;
    case 'webhooks':
      await withDatabase(config, (database) => {
        const webhooks = createWebhooksModule({
          db: database.db,
          vault: createVault(() => loadVaultKeys(config)),
          settings: config.webhooks,
          production: config.environment === 'production',
        });
        return webhooksCommand(webhooks.endpoints, createPlatformsModule({ db: database.db }).platforms, sub, rest, values, json);
      });
      return;
    case 'tokens': {
      if (sub !== 'rotate-key') throw new UsageError('Unknown tokens command; see statehouse --help');
      await withDatabase(config, async (database) => {
        await createSystemModule({ db: database.db, vault: createVault(loadVaultKeys(config)) }).instanceKeys.rotate(
          INSTANCE_KEY.accessTokens,
        );
        print(
          json,
          { rotated: INSTANCE_KEY.accessTokens },
          'New access-token signing key stored; the previous one keeps verifying the tokens it signed. Every running statehouse serve process signs with the new key within a second (no restart).',
        );
      });
      return;
    }
    case 'vault':
    case 'logins': {
      if (command === 'vault' && sub !== 'reencrypt') throw new UsageError('Unknown vault command; see statehouse --help');
      if (sub === 'reencrypt') {
        await withDatabase(config, async (database) => {
          const vault = createVault(loadVaultKeys(config));
          const inputs = createAutomationInputRotation(database.db, vault);
          const calendarTokens = createCalendarTokenRotation(database.db, vault);
          // Automation inputs and calendar tokens checked, then instance keys: one that cannot be opened stops everything before any login is touched.
          await inputs.check();
          await calendarTokens.check();
          const { resealed: instanceKeysResealed } = await createSystemModule({ db: database.db, vault }).instanceKeys.reseal();
          const logins = await reencryptLoginSecrets(database.db, vault);
          const { reencrypted: automationInputsReencrypted } = await inputs.reencrypt();
          const { reencrypted: calendarTokensReencrypted } = await calendarTokens.reencrypt();
          const result = { ...logins, instanceKeysResealed, automationInputsReencrypted, calendarTokensReencrypted };
          print(
            json,
            result,
            `re-encrypted ${result.reencrypted} login secrets with the current vault key (${result.alreadyCurrent} already were), re-sealed ${result.instanceKeysResealed} instance keys, ${automationInputsReencrypted} automation inputs and ${calendarTokensReencrypted} calendar URLs`,
          );
        });
        return;
      }
      if (sub === 'reveals') {
        await withDatabase(config, async (database) => {
          const rows = await accountsFor(database.db, config).listReveals({ legalEntityId: values.entity, platformId: values.platform });
          print(
            json,
            rows,
            rows.length
              ? rows
                  .map(
                    (r) =>
                      `${r.revealed_at.toISOString()}  ${r.platform_id}  ${r.legal_entity_id}  ${r.login_id} (${r.login_name})  session ${r.hosted_session_id}`,
                  )
                  .join('\n')
              : 'no reveals recorded',
          );
        });
        return;
      }
      if (sub !== 'create' || !rest[0]) throw new UsageError('Unknown logins command; see statehouse --help');
      if (!values.region || !values.name || !values.url) throw new UsageError('logins create needs --region, --name and --url');
      const secrets = validateSecrets(await readSecretsFromStdin());
      const input = {
        region_code: values.region,
        name: values.name,
        login_url: values.url,
        agency_account_id: values.account ?? null,
        is_supported: values.supported ?? false,
        secrets,
      };
      await withDatabase(config, async (database) => {
        const login = await accountsFor(database.db, config).createLogin(rest[0]!, input);
        print(
          json,
          {
            login_id: login.id,
            legal_entity_id: rest[0],
            region: login.region.code,
            name: login.name,
            login_url: login.loginUrl,
            agency_account_id: login.agencyAccountId,
            is_supported: login.isSupported,
          },
          `Created login ${login.id} (${login.region.code}): ${login.name}; its secrets are stored encrypted`,
        );
      });
      return;
    }
    default:
      throw new UsageError(`Unknown command '${command}'`);
  }
}

function planningFor(db: DatabaseHandle['db'], config: Config, catalogDir?: string) {
  const catalog = loadCatalog(catalogDir);
  const releasesDir = catalogDir === undefined ? undefined : path.join(catalogDir, 'releases');
  const taskEvents = createTaskEvents({
    catalog,
    publicBaseUrl: config.publicBaseUrl,
    events: createEventsService(),
    ...(releasesDir && { releasesDir }),
  });
  return createPlanningModule({ db, catalog, now: () => new Date(), taskEvents, plannedTasks: plannedTaskStore });
}

const demoExtras = (db: DatabaseHandle['db'], config: Config) => ({ accounts: accountsFor(db, config), mail: mailFor(db, config) });

const mailFor = (db: DatabaseHandle['db'], config: Config) => createMailModule({ config, db, events: createEventsService() }).mail;

function accountsFor(db: DatabaseHandle['db'], config: Config): AccountsService {
  return createAccountsModule({
    db,
    catalog: loadCatalog(),
    vault: createVault(() => loadVaultKeys(config)),
    events: createEventsService(),
  }).accounts;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof DataDirectoryBusyError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const e = error as { status?: number; detail?: string; message?: string };
  process.stderr.write(`error: ${e.detail ?? e.message ?? String(error)}\n`);
  process.exit(1);
});
