import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirectoryBusyError } from '../db/embedded.js';
import { migrateToLatest } from '../db/database.js';
import { loadCatalog } from '../catalog/catalog.js';
import { createOperatorsModule } from '../modules/operators/index.js';
import { createAuditModule } from '../modules/audit/index.js';
import { createDemoModule } from '../modules/demo/index.js';
import { createPlatformsModule } from '../modules/platforms/index.js';
import { createVault, loadVaultKeys } from '../crypto/vault.js';
import { closeOnSignals, startServer } from '../server.js';
import { checkStartMode } from '../production.js';
import { accountsCommand, loginsCommand } from './accounts-command.js';
import { demoExtras, log, mailFor, planningFor, withDatabase } from './command-services.js';
import { reencryptCommand, rotateTokenKeyCommand } from './keys-command.js';
import { mailCommand } from './mail-command.js';
import { operatorsCommand } from './operators-command.js';
import { parseCommandLine } from './options.js';
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
import { createWebhooksModule } from '../modules/webhooks/index.js';
import { webhooksCommand } from './webhooks-command.js';
import { importCommand, importsFor } from './import-command.js';
import { consoleCommand } from './console-command.js';

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv);
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
      const demo = await createDemoModule({ db: server.database.db, publicBaseUrl: config.publicBaseUrl })
        .seed(server.app.services, demoKey(config, true))
        .catch((error: unknown) => {
          // A signal during the seeding closes the database under it: the shutdown in progress stops PostgreSQL
          // and exits; failing here would exit first and leave PostgreSQL running.
          if (server.isClosing()) return new Promise<never>(() => {});
          throw error;
        });
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
        createDemoModule({ db: database.db, publicBaseUrl: config.publicBaseUrl }).seed(
          demoExtras(database.db, config),
          demoKey(config, false),
        ),
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
    case 'import':
      await withDatabase(config, (database) =>
        importCommand(importsFor(database.db, config), [sub, ...rest].filter(Boolean) as string[], values, json),
      );
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
        operatorsCommand(
          createOperatorsModule({
            db: database.db,
            publicBaseUrl: config.publicBaseUrl,
            audit: createAuditModule({ db: database.db }).audit,
          }),
          sub,
          rest,
          values,
          json,
        ),
      );
      return;
    case 'console':
      return consoleCommand(config, sub, values, json);
    case 'accounts':
      return accountsCommand(config, sub, rest, values, json);
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
    case 'tokens':
      if (sub !== 'rotate-key') throw new UsageError('Unknown tokens command; see statehouse --help');
      return rotateTokenKeyCommand(config, json);
    case 'vault':
    case 'logins':
      if (command === 'vault' && sub !== 'reencrypt') throw new UsageError('Unknown vault command; see statehouse --help');
      if (sub === 'reencrypt') return reencryptCommand(config, json);
      return loginsCommand(config, sub, rest, values, json);
    default:
      throw new UsageError(`Unknown command '${command}'`);
  }
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
