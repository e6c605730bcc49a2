import type { Vault } from '../../crypto/vault.js';
import type { Db } from '../../db/database.js';
import type { AgencyAccountDatum, AgencyAccountRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import type { AccountEvents } from './accounts.events.js';
import { httpUrl, validateSecrets } from './accounts.input.js';
import { createAccountsRepository } from './accounts.repository.js';
import type { AccountSync, AccountsService, FiledAccount } from './contract.js';

export const ACCOUNT_ID_PREFIX = 'acct';
export const LOGIN_ID_PREFIX = 'login';

/** Merges learned attributes into the account's data by name: fills (status `done`) or appends. */
export function mergeAttributes(data: AgencyAccountDatum[], learned: AccountSync['attributes']): AgencyAccountDatum[] {
  const out = data.map((d) => ({ ...d }));
  for (const attribute of learned) {
    const existing = out.find((d) => d.name.toLowerCase() === attribute.name.toLowerCase());
    if (existing) {
      existing.value = attribute.value;
      existing.status = 'done';
    } else {
      out.push({ name: attribute.name, description: attribute.description, value: attribute.value, status: 'done' });
    }
  }
  return out;
}

/**
 * The writes other modules make to accounts and logins, each in the caller's transaction so it commits with
 * the caller's change: a connection's lock and sync (connections), a completed filing's account (automations).
 */
export function createAccountPorts(deps: {
  vault: Pick<Vault, 'seal'>;
  announce: AccountEvents;
  agencyOf: (row: AgencyAccountRow) => { name: string } | undefined;
}): Pick<AccountsService, 'lockAccount' | 'recordSync' | 'recordFiledAccount'> {
  const { announce } = deps;
  return {
    lockAccount: (trx: Db, legalEntityId: string, accountId: string) => createAccountsRepository(trx).lockAccount(legalEntityId, accountId),

    async recordSync(trx: Db, legalEntityId: string, accountId: string, sync: AccountSync) {
      const inTrx = createAccountsRepository(trx);
      if (sync.loginId) await inTrx.markLoginSupported(legalEntityId, sync.loginId);
      const data = await inTrx.lockAccountData(legalEntityId, accountId);
      await inTrx.updateAccountDetails(legalEntityId, accountId, sync.details, mergeAttributes(data, sync.attributes));
      await announce.accountUpdated({ trx, repo: inTrx }, legalEntityId, accountId, ['data']);
    },

    async recordFiledAccount(trx: Db, legalEntityId: string, input: FiledAccount) {
      const inTrx = createAccountsRepository(trx);
      const account = await inTrx.insertAccount({
        id: newId(ACCOUNT_ID_PREFIX),
        legal_entity_id: legalEntityId,
        region_code: input.regionCode,
        agency_id: input.agencyId,
        name: input.name,
        data: input.data.map((d) => ({ name: d.name, description: null, value: d.value, status: 'done' })),
      });
      const id = input.login ? newId(LOGIN_ID_PREFIX) : null;
      const login =
        input.login &&
        id &&
        (await inTrx.insertLogin({
          id,
          legal_entity_id: legalEntityId,
          agency_account_id: account.id,
          region_code: input.regionCode,
          name: `${deps.agencyOf(account)?.name ?? input.name} login`,
          login_url: httpUrl(input.login.loginUrl, 'login_url'),
          is_supported: false,
          secret: deps.vault.seal(validateSecrets(input.login.secrets), id),
        }));
      // The account's event shows the login it was created with; the login has its own.
      await announce.accountCreated({ trx, repo: inTrx }, legalEntityId, account.id);
      if (login) await announce.loginCreated({ trx, repo: inTrx }, legalEntityId, login, { accountAlsoCreated: true });
      return { accountId: account.id, loginId: id };
    },
  };
}
