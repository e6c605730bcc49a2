import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { DataDirectoryBusyError } from '../db/embedded.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db/database.js';
import { loadCatalog } from '../catalog/catalog.js';
import { listReveals } from '../modules/accounts/login-reveal.routes.js';
import { reencryptLoginSecrets } from '../modules/accounts/vault-rotation.js';
import { createOperatorsService } from '../modules/operators/operators.service.js';
import { seedDemo, type DemoData } from '../modules/demo/demo.js';
import { DEMO_KEY_FILE } from '../modules/demo/demo-key.js';
import { createAccountsService, validateSecrets, type AccountsService } from '../modules/accounts/accounts.service.js';
import { createVault, loadVaultKeys } from '../modules/accounts/vault.js';
import { createInstanceKeys, INSTANCE_KEY } from '../modules/system/instance-keys.js';
import { rollForwardAll } from '../modules/tasks/tasks.jobs.js';
import { createTasksService } from '../modules/tasks/tasks.service.js';
import { createCallbackOrigins } from '../modules/platforms/callback-origins.js';
import { createPlatformsRepository } from '../modules/platforms/platforms.repository.js';
import { createPlatformsService } from '../modules/platforms/platforms.service.js';
import { closeOnSignals, startServer } from '../server.js';
import { checkStartMode } from '../production.js';
import { mailCommand } from './mail-command.js';
import { operatorKeysCommand } from './operators-command.js';
import { stopWhenNpmParentDies } from './parent-watch.js';
import { holdSignalsWhileStarting } from './start-signals.js';
import { takeEarlyStart } from './early-start.js';
import { print, UsageError } from './output.js';
import { createMailServiceFor } from '../modules/mail/mail.module.js';

const USAGE = `Usage: statehouse <command> [options]

Commands:
  serve [--demo]                      Start the HTTP service (with --demo: create demo data and print how to call it)
  migrate                             Apply database migrations and exit
  demo [--json]                       Create the demo platform and legal entities, print a fresh demo API key (revokes the old one)
  platforms create <name> [--json]    Create a platform and print its API key (shown once)
  platforms list [--json]             List platforms
  platforms keys list <platform_id> [--json]
  platforms keys rotate <platform_id> [--json]   Issue an additional key (revoke the old one when clients have moved)
  platforms keys revoke <key_id> [--json]
  platforms callbacks list <platform_id> [--json]            Allowed callback origins (none: any http(s) URL in development, none in production)
  platforms callbacks add <platform_id> <origin> [--json]    e.g. https://app.acme.com
  platforms callbacks remove <platform_id> <origin>
  catalog list [--region CA] [--json]  List the compliance catalog's requirements
  catalog explain <legal_entity_id> [--json]   Which requirements apply to an entity, and why
  tasks roll-forward                  Run the daily job now: plan every entity's tasks 12 months ahead
  operators keys create <name> [--json]   Create an operator API key (/operator/v1; shown once)
  operators keys list [--json]
  operators keys revoke <key_id>
  accounts create <legal_entity_id> --region CA --agency ca-edd --name "…" [--data name=value …] [--json]
                                      Record an agency account of a legal entity (agency ids: catalog/regions/XX.yaml)
  logins reencrypt [--json]           After a vault key rotation: re-seal every secret (login secrets and instance keys)
                                      with the current (first) key; also upgrades older login-secret bindings
  vault reencrypt [--json]            The same as logins reencrypt
  tokens rotate-key                   A new access-token signing key; the previous one still verifies what it signed
                                      (restart the servers afterwards; see docs/security.md)
  logins reveals [--entity <legal_entity_id>] [--platform <platform_id>] [--json]   Audit trail of credential views
  logins create <legal_entity_id> --region CA --name "…" --url https://… [--account <agency_account_id>] [--supported] [--json]
                                      Record a login; its secrets are read from stdin as JSON
                                      {"username", "password", "security_answers"?: [{question, answer}], "totp_seed"?}
                                      and stored encrypted (never pass them as arguments)
  mail upload --entity <legal_entity_id> --file <path.pdf> [--region CA] [--type registered-agent|external-mail]
              [--sender "…"] [--received YYYY-MM-DD] [--json]
                                      Record mail received for a legal entity; the PDF is stored in STATEHOUSE_DATA_DIR/files
                                      (type defaults to registered-agent, received to today in UTC)
  mail list --entity <legal_entity_id> [--json]   The entity's mail, newest received first
  mail gc [--json]                    Remove stored files no mail item refers to (left by a crash mid-upload; older than 1 hour)

Configuration comes from the environment: PORT, HOST, STATEHOUSE_DATA_DIR, DATABASE_URL, PUBLIC_BASE_URL,
LOG_LEVEL, LOG_FORMAT, STATEHOUSE_ENV (or NODE_ENV), ACCESS_TOKEN_TTL_SECONDS, SIGNUP_SESSION_TTL_SECONDS, HOSTED_SESSION_TTL_SECONDS, DATABASE_POOL_SIZE,
BODY_LIMIT_BYTES, STATEHOUSE_VAULT_KEY, MAIL_MAX_BYTES, FILE_URL_TTL_SECONDS, SANDBOX_CONNECTOR_STEP_MS, METRICS_TOKEN,
RATE_LIMIT_WINDOW_SECONDS, RATE_LIMIT_PER_CREDENTIAL, RATE_LIMIT_PER_ADDRESS, RATE_LIMIT_AUTH_OPERATIONS, RATE_LIMIT_FAILED_AUTH,
SHED_EVENT_LOOP_DELAY_MS, SHED_EVENT_LOOP_UTILIZATION (see README).`;

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

/** The demo key is kept in the data directory so `serve --demo` prints the same one at every start; `demo` issues a fresh one. */
const demoKey = (config: Config, reuse: boolean) => ({ file: path.join(config.dataDir, DEMO_KEY_FILE), reuse });

function demoInstructions(config: Config, demo: DemoData): string {
  const base = config.publicBaseUrl;
  return [
    `Demo API key (kept in ${path.join(config.dataDir, DEMO_KEY_FILE)}; \`npm start\` prints the same one again):`,
    demo.apiKey,
    '',
    `Demo legal entity (active, locations CA and NY): ${demo.legalEntityId}`,
    `Demo legal entity waiting for signup:           ${demo.inactiveLegalEntityId}`,
    '',
    'Try:',
    `  export BASE=${base} KEY=${demo.apiKey}`,
    `  TOKEN=$(curl -s -X POST $BASE/accounts/auth -H "Authorization: $KEY" -H 'content-type: application/json' \\`,
    `    -d '{"legal_entity_id":"${demo.legalEntityId}"}' | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    '  curl -s $BASE/legal_entity -H "Authorization: Bearer $TOKEN"',
    '  curl -s $BASE/locations -H "Authorization: Bearer $TOKEN"',
    '  curl -s $BASE/v2/agency_accounts -H "Authorization: Bearer $TOKEN"   # with a login; POST /accounts/connect to connect it',
    '  curl -s $BASE/v2/mail -H "Authorization: Bearer $TOKEN"              # file_url downloads the PDF, no token needed',
    `  API reference: ${base}/docs`,
  ].join('\n');
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
      received: { type: 'string' },
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
      if (values.demo) process.stdout.write(`\n${demoInstructions(config, await seedDemo(server.database.db, config.publicBaseUrl, server.app.services, demoKey(config, true)))}\n\n`);
      return;
    }
    case 'migrate': {
      await withDatabase(config, async (database) => {
        const applied = await migrateToLatest(database.connectionString);
        print(json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      }, false);
      return;
    }
    case 'demo': {
      const demo = await withDatabase(config, (database) => seedDemo(database.db, config.publicBaseUrl, demoExtras(database.db, config), demoKey(config, false)));
      print(json, demo, demoInstructions(config, demo));
      return;
    }
    case 'catalog':
      if (sub === 'list') return catalogList(values.region, json);
      if (sub === 'explain' && rest[0]) {
        await withDatabase(config, async (database) => catalogExplain(tasksFor(database.db), rest[0]!, json));
        return;
      }
      throw new UsageError('Unknown catalog command; see statehouse --help');
    case 'tasks':
      if (sub !== 'roll-forward') throw new UsageError('Unknown tasks command; see statehouse --help');
      await withDatabase(config, async (database) => {
        const result = await rollForwardAll(database.db, tasksFor(database.db));
        print(json, result, `rolled forward ${result.entities} legal entities, ${result.created} new tasks`);
      });
      return;
    case 'platforms':
      await withDatabase(config, (database) =>
        sub === 'callbacks'
          ? callbacksCommand(createPlatformsService(createPlatformsRepository(database.db)), createCallbackOrigins(database.db), rest, json)
          : platformsCommand(createPlatformsService(createPlatformsRepository(database.db)), sub, rest, json));
      return;
    case 'operators':
      if (sub !== 'keys') throw new UsageError('Unknown operators command; see statehouse --help');
      await withDatabase(config, (database) => operatorKeysCommand(createOperatorsService(database.db), rest, json));
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
        print(json, { agency_account_id: account.id, legal_entity_id: account.legal_entity_id, region: account.region_code, agency_id: account.agency_id, name: account.name, data: account.data },
          `Created agency account ${account.id} (${account.region_code}, ${account.agency_id}): ${account.name}`);
      });
      return;
    }
    case 'mail':
      await withDatabase(config, (database) => mailCommand(createMailServiceFor(config, database.db), config.mailMaxBytes, sub, values, json));
      return;
    case 'tokens': {
      if (sub !== 'rotate-key') throw new UsageError('Unknown tokens command; see statehouse --help');
      await withDatabase(config, async (database) => {
        await createInstanceKeys(database.db, createVault(loadVaultKeys(config))).rotate(INSTANCE_KEY.accessTokens);
        print(json, { rotated: INSTANCE_KEY.accessTokens },
          'New access-token signing key stored; the previous one keeps verifying the tokens it signed. Restart every statehouse serve process to sign with the new key.');
      });
      return;
    }
    case 'vault':
    case 'logins': {
      if (command === 'vault' && sub !== 'reencrypt') throw new UsageError('Unknown vault command; see statehouse --help');
      if (sub === 'reencrypt') {
        await withDatabase(config, async (database) => {
          const vault = createVault(loadVaultKeys(config));
          // Instance keys first: one that cannot be opened stops everything before any login is touched.
          const { resealed: instanceKeysResealed } = await createInstanceKeys(database.db, vault).reseal();
          const result = { ...(await reencryptLoginSecrets(database.db, vault)), instanceKeysResealed };
          print(json, result, `re-encrypted ${result.reencrypted} login secrets with the current vault key (${result.alreadyCurrent} already were) and re-sealed ${result.instanceKeysResealed} instance keys`);
        });
        return;
      }
      if (sub === 'reveals') {
        await withDatabase(config, async (database) => {
          const rows = await listReveals(database.db, { legalEntityId: values.entity, platformId: values.platform });
          print(json, rows, rows.length ? rows.map((r) => `${r.revealed_at.toISOString()}  ${r.platform_id}  ${r.legal_entity_id}  ${r.login_id} (${r.login_name})  session ${r.hosted_session_id}`).join('\n') : 'no reveals recorded');
        });
        return;
      }
      if (sub !== 'create' || !rest[0]) throw new UsageError('Unknown logins command; see statehouse --help');
      if (!values.region || !values.name || !values.url) throw new UsageError('logins create needs --region, --name and --url');
      const secrets = validateSecrets(await readSecretsFromStdin());
      const input = { region_code: values.region, name: values.name, login_url: values.url, agency_account_id: values.account ?? null, is_supported: values.supported ?? false, secrets };
      await withDatabase(config, async (database) => {
        const login = await accountsFor(database.db, config).createLogin(rest[0]!, input);
        print(json, { login_id: login.id, legal_entity_id: rest[0], region: login.region.code, name: login.name, login_url: login.loginUrl, agency_account_id: login.agencyAccountId, is_supported: login.isSupported },
          `Created login ${login.id} (${login.region.code}): ${login.name}; its secrets are stored encrypted`);
      });
      return;
    }
    default:
      throw new UsageError(`Unknown command '${command}'`);
  }
}

function tasksFor(db: DatabaseHandle['db']) {
  // Operator commands only read and regenerate: nothing here answers questions.
  return createTasksService({ db, catalog: loadCatalog(), now: () => new Date(), applyLocationChange: () => Promise.reject(new Error('not available from the CLI')) });
}

const demoExtras = (db: DatabaseHandle['db'], config: Config) => ({ accounts: accountsFor(db, config), mail: createMailServiceFor(config, db) });

function accountsFor(db: DatabaseHandle['db'], config: Config): AccountsService {
  return createAccountsService({ db, catalog: loadCatalog(), vault: createVault(() => loadVaultKeys(config)) });
}

/** Login secrets come from stdin (a pipe or a heredoc), never from argv, where `ps` and shell history would see them. */
async function readSecretsFromStdin(): Promise<unknown> {
  if (process.stdin.isTTY) throw new UsageError('logins create reads the secrets from stdin as JSON, e.g. statehouse logins create … < secrets.json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new UsageError('the secrets on stdin exceed 64 KiB');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    // The input is not echoed: it may be a password.
    throw new UsageError('the secrets on stdin are not valid JSON; expected {"username": "…", "password": "…"}');
  }
}

function catalogList(region: string | undefined, json: boolean) {
  const catalog = loadCatalog();
  const code = region?.toUpperCase();
  if (code && !catalog.regions.has(code)) throw new UsageError(`Unknown region '${region}'`);
  const rows = [...catalog.regions.values()]
    .filter((r) => !code || r.region.code === code)
    .flatMap((r) => r.requirements.map((d) => ({ region: r.region.code, id: d.id, family: d.family, title: d.title, agency: r.agencies.get(d.agency)!.name, confidence: d.confidence })));
  print(json, rows, rows.map((r) => `${r.region}  ${r.id.padEnd(52)} ${r.family.padEnd(24)} ${r.title}${r.confidence === 'uncertain' ? '  (uncertain)' : ''}`).join('\n'));
}

async function catalogExplain(tasks: ReturnType<typeof tasksFor>, legalEntityId: string, json: boolean) {
  const { regions, planned } = await tasks.explain(legalEntityId);
  const text = regions.map((region) => {
    const lines = region.requirements.map((r) => {
      const mark = r.applies === true ? 'applies' : r.applies === false ? 'no     ' : 'unknown';
      const why = r.applies === true ? r.reasons.map((m) => m.reason).join('; ') : r.applies === null ? `needs: ${r.unknown.join(', ')}` : '';
      const due = planned.filter((p) => p.definitionId === r.id && p.regionCode === region.regionCode).map((p) => p.dueDate ?? 'no due date');
      return `  ${mark}  ${r.id}${due.length ? `  [${due.join(', ')}]` : ''}${why ? `\n           ${why}` : ''}`;
    });
    const questions = planned.filter((p) => p.kind === 'question' && p.regionCode === region.regionCode).map((p) => `  question ${p.definitionId}`);
    return [`${region.regionCode}${region.isHome ? ' (state of incorporation)' : ''}`, ...lines, ...questions].join('\n');
  }).join('\n\n');
  print(json, { regions, planned }, text);
}

async function callbacksCommand(platforms: ReturnType<typeof createPlatformsService>, origins: ReturnType<typeof createCallbackOrigins>, args: string[], json: boolean) {
  const [action, platformId, origin] = args;
  if (!platformId) throw new UsageError('platforms callbacks needs a platform id');
  await platforms.listKeys(platformId); // 404s an unknown platform
  if (action === 'list') {
    const list = await origins.list(platformId);
    print(json, list, list.length ? list.join('\n') : 'no allowed callback origins: any http(s) callback URL is accepted');
  } else if (action === 'add' && origin) {
    const added = await origins.add(platformId, origin).catch((error: Error) => { throw new UsageError(error.message); });
    print(json, { platform_id: platformId, origin: added }, `Allowed callback origin ${added}`);
  } else if (action === 'remove' && origin) {
    const removed = await origins.remove(platformId, origin);
    print(json, { platform_id: platformId, removed: removed > 0 }, removed ? `Removed ${origin}` : `${origin} was not allowed`);
  } else {
    throw new UsageError('Unknown callbacks command; see statehouse --help');
  }
}

async function platformsCommand(platforms: ReturnType<typeof createPlatformsService>, sub: string | undefined, args: string[], json: boolean) {
  const [first, second] = args;
  if (sub === 'create') {
    if (!first) throw new UsageError('platforms create needs a name, e.g. statehouse platforms create "Acme Payroll"');
    const { platform, apiKey } = await platforms.create(first);
    // The key goes on a line of its own so scripts can take it with `tail -n 1`.
    print(json, { platform_id: platform.id, name: platform.name, api_key_id: apiKey.id, api_key: apiKey.key },
      `Created platform ${platform.name} (${platform.id}).\nAPI key ${apiKey.id} (shown once; store it now):\n${apiKey.key}`);
  } else if (sub === 'list') {
    const list = await platforms.list();
    print(json, list.map((p) => ({ platform_id: p.id, name: p.name, created_at: p.created_at })),
      list.length ? list.map((p) => `${p.id}\t${p.name}`).join('\n') : 'no platforms');
  } else if (sub === 'keys' && first === 'list' && second) {
    const keys = await platforms.listKeys(second);
    print(json, keys.map((k) => ({ api_key_id: k.id, hint: k.key_hint, created_at: k.created_at, revoked_at: k.revoked_at })),
      keys.map((k) => `${k.id}\t${k.key_hint}\t${k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : 'active'}`).join('\n'));
  } else if (sub === 'keys' && first === 'rotate' && second) {
    const key = await platforms.rotateKey(second);
    print(json, { api_key_id: key.id, api_key: key.key }, `New API key ${key.id} (shown once; older keys stay valid until revoked):\n${key.key}`);
  } else if (sub === 'keys' && first === 'revoke' && second) {
    const key = await platforms.revokeKey(second);
    print(json, { api_key_id: key.id, revoked: true }, `Revoked API key ${key.id}`);
  } else {
    throw new UsageError('Unknown platforms command; see statehouse --help');
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
