import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AgencyAccountRow } from '../../db/schema.js';
import { InvalidInputError, NotFoundError } from '../../lib/errors.js';
import type { EventRecorder, NewEvent } from '../events/contract.js';
import type { AccountsRepository } from './accounts.repository.js';
import { createAccountsService } from './accounts.service.js';
import type { SealedSecret, Vault } from '../../crypto/vault.js';

// The rules the operator API (POST /operator/v1/legal_entities/{id}/agency_accounts and …/logins) and the CLI share,
// against an in-memory repository: a known entity, one California EDD account.
const ENTITY = 'le_known';
const account: AgencyAccountRow = {
  id: 'acct_ca',
  legal_entity_id: ENTITY,
  region_code: 'CA',
  agency_id: 'ca-edd',
  name: 'Payroll tax',
  data: [],
  details: null,
  created_at: new Date(0),
  updated_at: new Date(0),
};

function fakeRepository() {
  const inserted: { accounts: AgencyAccountRow[]; logins: unknown[] } = { accounts: [], logins: [] };
  const repo: Partial<AccountsRepository> = {
    legalEntityExists: async (id) => id === ENTITY,
    platformOf: async (id) => (id === ENTITY ? 'plat_known' : undefined),
    findAccount: async (legalEntityId, id) =>
      [account, ...inserted.accounts].find((a) => a.legal_entity_id === legalEntityId && a.id === id),
    findLogins: async () => [],
    insertAccount: async (row) => {
      const created = { ...account, ...row };
      inserted.accounts.push(created);
      return created;
    },
    insertLogin: async (row) => {
      inserted.logins.push(row);
      const { secret: _, ...rest } = row;
      return { ...rest, created_at: new Date(0), updated_at: new Date(0) };
    },
  };
  repo.inTransaction = async (work) => work(repo as AccountsRepository, {} as Db);
  return { repo: repo as AccountsRepository, inserted };
}

/** The events the service records, in memory. */
function recorder() {
  const recorded: NewEvent[] = [];
  const events: EventRecorder = {
    record: async (_trx, e) => {
      recorded.push(...(Array.isArray(e) ? e : [e as NewEvent]));
    },
  };
  return { events, recorded };
}

const catalog = {
  regions: new Map([
    ['CA', { agencies: new Map([['ca-edd', { id: 'ca-edd', name: 'Employment Development Department', website: 'https://edd.ca.gov' }]]) }],
  ]),
} as unknown as Pick<Catalog, 'regions'>;

const vault: Pick<Vault, 'seal' | 'open'> = {
  seal: () =>
    ({ ciphertext: Buffer.alloc(1), iv: Buffer.alloc(12), tag: Buffer.alloc(16), keyId: 'k', aadVersion: 2 }) satisfies SealedSecret,
  open: () => {
    throw new Error('not opened in these tests');
  },
};

const secrets = { username: 'u', password: 'p' };
const newLogin = { region_code: 'CA', name: 'EDD portal', login_url: 'https://edd.ca.gov/login', secrets };

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('accounts rules shared by the operator API and the CLI', () => {
  it('an agency account needs a known entity and an agency the catalog knows for its region', async () => {
    const { repo, inserted } = fakeRepository();
    const { events, recorded } = recorder();
    const accounts = createAccountsService({ repo, catalog, vault, events });
    await expect(accounts.createAccount('le_unknown', { region_code: 'CA', agency_id: 'ca-edd', name: 'x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const error = await rejection(accounts.createAccount(ENTITY, { region_code: 'CA', agency_id: 'ny-dol', name: 'x' }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ path: ['agency_id'], input: 'ny-dol', reason: "Unknown agency 'ny-dol' for CA; known: ca-edd" });
    expect(inserted.accounts).toEqual([]);
    expect(recorded).toEqual([]);
    const created = await accounts.createAccount(ENTITY, { region_code: 'CA', agency_id: 'ca-edd', name: 'Payroll tax' });
    expect(inserted.accounts).toHaveLength(1);
    expect(recorded).toEqual([
      {
        type: 'agency_account.created',
        platformId: 'plat_known',
        legalEntityId: ENTITY,
        data: { object: expect.objectContaining({ id: created.id, region: 'CA', name: 'Payroll tax', logins: [] }) },
      },
    ]);
  });

  it('a login of an agency account needs that account of the same entity, in the same region', async () => {
    const { repo, inserted } = fakeRepository();
    const { events, recorded } = recorder();
    const accounts = createAccountsService({ repo, catalog, vault, events });
    const missing = await rejection(accounts.createLogin(ENTITY, { ...newLogin, agency_account_id: 'acct_other' }));
    expect(missing).toMatchObject({
      path: ['agency_account_id'],
      input: 'acct_other',
      reason: `Agency account 'acct_other' not found for legal entity '${ENTITY}'`,
    });
    const elsewhere = await rejection(accounts.createLogin(ENTITY, { ...newLogin, region_code: 'NY', agency_account_id: account.id }));
    expect(elsewhere).toBeInstanceOf(InvalidInputError);
    expect(elsewhere).toMatchObject({ path: ['region_code'], input: 'NY', reason: `Agency account '${account.id}' is in CA, not NY` });
    expect(inserted.logins).toEqual([]);

    const login = await accounts.createLogin(ENTITY, { ...newLogin, agency_account_id: account.id });
    expect(login).toMatchObject({ agencyAccountId: account.id, loginUrl: newLogin.login_url, isSupported: false });
    // Without an account only the region is checked.
    await accounts.createLogin(ENTITY, { ...newLogin, region_code: 'NY' });
    expect(inserted.logins).toHaveLength(2);
    // The account's login is announced with the account that gained it; the one without an account alone.
    expect(recorded.map((e) => [e.type, e.data.changed ?? null])).toEqual([
      ['login.created', null],
      ['agency_account.updated', ['logins']],
      ['login.created', null],
    ]);
  });

  it('the operator listing is a 404 for an unknown entity', async () => {
    const { repo } = fakeRepository();
    const accounts = createAccountsService({
      repo: { ...repo, findAccounts: async () => [account], findLogins: async () => [] },
      catalog,
      vault,
      events: recorder().events,
    });
    await expect(accounts.listAccountsForOperator('le_unknown')).rejects.toThrow("Legal entity 'le_unknown' not found");
    expect((await accounts.listAccountsForOperator(ENTITY)).map((a) => a.id)).toEqual([account.id]);
  });
});
