// `statehouse accounts …` and `statehouse logins …`: an entity's agency accounts and logins, secrets from stdin.
import type { Config } from '../config.js';
import { validateSecrets } from '../modules/accounts/contract.js';
import { accountsFor, withDatabase } from './command-services.js';
import type { CommandOptions } from './options.js';
import { print, UsageError } from './output.js';
import { readSecretsFromStdin } from './secrets-stdin.js';

export async function accountsCommand(config: Config, sub: string | undefined, rest: string[], values: CommandOptions, json: boolean) {
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
}

export async function loginsCommand(config: Config, sub: string | undefined, rest: string[], values: CommandOptions, json: boolean) {
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
}
