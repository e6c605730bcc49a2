import type { Catalog } from '../../catalog/catalog.js';
import { regionByCode, resolveRegion, type Region } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { AgencyAccountDatum, AgencyAccountRow } from '../../db/schema.js';
import type { EventRecorder } from '../events/contract.js';
import { BadRequestError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccessScope } from '../../http/principals.js';
import { createAccountEvents } from './accounts.events.js';
import { httpUrl, optionalText, text, validateSecrets } from './accounts.input.js';
import { createAccountViews } from './accounts.views.js';
import type { AccountsRepository } from './accounts.repository.js';
import { AGENCY_DATA_STATUSES } from './accounts.schemas.js';
import type { LoginSecrets, Vault } from '../../crypto/vault.js';
import { ACCOUNT_ID_PREFIX, createAccountPorts, LOGIN_ID_PREFIX } from './accounts-ports.js';
import type { AccountsService, AgencyAccountView, LoginView, NewAccountLogin, NewAgencyAccount } from './contract.js';

export { loginRevealPath } from './accounts.views.js';

/** What the service needs: its repository, the catalog's agencies and the vault that seals login secrets. */
export interface AccountsServiceDeps {
  repo: AccountsRepository;
  catalog: Pick<Catalog, 'regions'>;
  vault: Pick<Vault, 'seal' | 'open'>;
  /** agency_account.created/updated and login.created, in each change's transaction. */
  events: EventRecorder;
}

export function createAccountsService(deps: AccountsServiceDeps): AccountsService {
  const { repo } = deps;

  function requireRegionCode(code: unknown): Region {
    const region = typeof code === 'string' ? regionByCode(code) : undefined;
    if (!region) throw new BadRequestError(`Unknown region '${String(code)}': use a two-letter state code`);
    return region;
  }

  async function requireEntity(legalEntityId: string) {
    if (!(await repo.legalEntityExists(legalEntityId))) throw new NotFoundError(`Legal entity '${legalEntityId}' not found`);
  }

  const views = createAccountViews(deps.catalog);
  const { agencyOf, toLoginView, toAccountView } = views;
  const announce = createAccountEvents({ events: deps.events, views });

  /** The entity's agency accounts, each with its logins; `regionCode` narrows to one state. */
  async function listAccounts(scope: Pick<AccessScope, 'legalEntityId'>, regionCode?: string): Promise<AgencyAccountView[]> {
    const [accounts, logins] = await Promise.all([
      repo.findAccounts(scope.legalEntityId, regionCode),
      repo.findLogins(scope.legalEntityId, regionCode),
    ]);
    return accounts.map((row) => toAccountView(row, logins));
  }

  /** Decrypts one login's secrets, for hosted pages and connectors only (never an API response). */
  async function openLoginSecrets(legalEntityId: string, loginId: string): Promise<LoginSecrets> {
    const sealed = await repo.findLoginSecret(legalEntityId, loginId);
    if (!sealed) throw new NotFoundError(`Login '${loginId}' not found`);
    return deps.vault.open(sealed, loginId);
  }

  const listLogins = async (scope: Pick<AccessScope, 'legalEntityId'>, regionCode?: string): Promise<LoginView[]> =>
    (await repo.findLogins(scope.legalEntityId, regionCode)).map(toLoginView);

  return {
    /**
     * Operator operation (CLI, operator API): records an agency account of a legal entity. `andThen` runs in the
     * insert's transaction (the operator API's audit line).
     */
    async createAccount(legalEntityId: string, input: NewAgencyAccount, andThen?: (trx: Db, created: { id: string }) => Promise<void>) {
      await requireEntity(legalEntityId);
      const region = requireRegionCode(input.region_code);
      const agencies = deps.catalog.regions.get(region.code)?.agencies;
      if (!agencies?.has(input.agency_id)) {
        throw new InvalidInputError(
          ['agency_id'],
          `Unknown agency '${input.agency_id}' for ${region.code}; known: ${[...(agencies?.keys() ?? [])].join(', ')}`,
          input.agency_id,
        );
      }
      if (input.data !== undefined && (!Array.isArray(input.data) || input.data.length > 100))
        throw new BadRequestError('data must be a list of at most 100 items');
      const data: AgencyAccountDatum[] = (input.data ?? []).map((d, i) => {
        const value = optionalText(d.value, `data[${i}].value`);
        const status = d.status ?? (value === null ? 'todo' : 'done');
        if (!AGENCY_DATA_STATUSES.includes(status))
          throw new BadRequestError(`data[${i}].status must be one of ${AGENCY_DATA_STATUSES.join(', ')}`);
        return { name: text(d.name, `data[${i}].name`), description: optionalText(d.description, `data[${i}].description`), value, status };
      });
      const name = text(input.name, 'name');
      return repo.inTransaction(async (inTrx, trx) => {
        const row = await inTrx.insertAccount({
          id: newId(ACCOUNT_ID_PREFIX),
          legal_entity_id: legalEntityId,
          region_code: region.code,
          agency_id: input.agency_id,
          name,
          data,
        });
        await announce.accountCreated({ trx, repo: inTrx }, legalEntityId, row.id);
        await andThen?.(trx, row);
        return row;
      });
    },

    /** Operator operation (CLI, operator API): records a login; its secrets are encrypted before they reach the database. `andThen` as for accounts. */
    async createLogin(legalEntityId: string, input: NewAccountLogin, andThen?: (trx: Db, created: { id: string }) => Promise<void>) {
      await requireEntity(legalEntityId);
      const region = requireRegionCode(input.region_code);
      const accountId = input.agency_account_id ?? null;
      if (accountId !== null) {
        const account = await repo.findAccount(legalEntityId, accountId);
        if (!account)
          throw new InvalidInputError(
            ['agency_account_id'],
            `Agency account '${accountId}' not found for legal entity '${legalEntityId}'`,
            accountId,
          );
        if (account.region_code !== region.code) {
          throw new InvalidInputError(
            ['region_code'],
            `Agency account '${accountId}' is in ${account.region_code}, not ${region.code}`,
            input.region_code,
          );
        }
      }
      const name = text(input.name, 'name');
      const loginUrl = httpUrl(input.login_url, 'login_url');
      const id = newId(LOGIN_ID_PREFIX);
      const secret = deps.vault.seal(validateSecrets(input.secrets), id);
      const row = await repo.inTransaction(async (inTrx, trx) => {
        const inserted = await inTrx.insertLogin({
          id,
          legal_entity_id: legalEntityId,
          agency_account_id: accountId,
          region_code: region.code,
          name,
          login_url: loginUrl,
          is_supported: input.is_supported ?? false,
          secret,
        });
        await announce.loginCreated({ trx, repo: inTrx }, legalEntityId, inserted);
        await andThen?.(trx, inserted);
        return inserted;
      });
      return toLoginView(row);
    },

    /**
     * Stores credentials a person typed on a hosted page (accounts management, connect): with `loginId`
     * they replace that login's secrets; without, they become a new login of the agency account, named
     * after it and pointing at its agency's website. Returns the login (never the secrets).
     */
    async saveLoginCredentials(
      legalEntityId: string,
      input: { agencyAccountId: string; loginId?: string | null; secrets: LoginSecrets },
    ): Promise<LoginView> {
      const account = await repo.findAccount(legalEntityId, input.agencyAccountId);
      if (!account) throw new NotFoundError(`Agency account '${input.agencyAccountId}' not found`);
      const secrets = validateSecrets(input.secrets);
      if (input.loginId) {
        const updated = await repo.updateLoginSecret(legalEntityId, input.loginId, deps.vault.seal(secrets, input.loginId), account.id);
        if (!updated) throw new NotFoundError(`Login '${input.loginId}' not found for agency account '${account.id}'`);
        return toLoginView(updated);
      }
      const agency = agencyOf(account);
      const id = newId(LOGIN_ID_PREFIX);
      const row = await repo.inTransaction(async (inTrx, trx) => {
        const inserted = await inTrx.insertLogin({
          id,
          legal_entity_id: legalEntityId,
          agency_account_id: account.id,
          region_code: account.region_code,
          name: `${agency?.name ?? account.name} login`,
          login_url: agency?.website || 'https://example.invalid/',
          is_supported: false,
          secret: deps.vault.seal(secrets, id),
        });
        await announce.loginCreated({ trx, repo: inTrx }, legalEntityId, inserted);
        return inserted;
      });
      return toLoginView(row);
    },

    /**
     * Replaces the username and password of any login of the entity (with or without an agency account),
     * from the hosted accounts page. A TOTP seed left out keeps the stored one; a security answer replaces
     * the stored answer to the same question (compared without case) and the other answers are kept.
     */
    async updateLoginCredentials(legalEntityId: string, loginId: string, secrets: LoginSecrets): Promise<LoginView> {
      const given = validateSecrets(secrets);
      const stored = await openLoginSecrets(legalEntityId, loginId);
      const merged: LoginSecrets = { username: given.username, password: given.password };
      const seed = given.totp_seed ?? stored.totp_seed;
      if (seed !== undefined) merged.totp_seed = seed;
      const answers = [...(stored.security_answers ?? [])];
      for (const qa of given.security_answers ?? []) {
        const same = answers.findIndex((a) => a.question.trim().toLowerCase() === qa.question.trim().toLowerCase());
        if (same >= 0) answers[same] = qa;
        else answers.push(qa);
      }
      if (answers.length) merged.security_answers = answers;
      const updated = await repo.updateLoginSecret(legalEntityId, loginId, deps.vault.seal(validateSecrets(merged), loginId));
      if (!updated) throw new NotFoundError(`Login '${loginId}' not found`);
      return toLoginView(updated);
    },

    openLoginSecrets,

    ...createAccountPorts({ vault: deps.vault, announce, agencyOf }),

    /** One login of the entity (its view, never its secrets); unknown or another entity's: 404. */
    async requireLogin(scope: Pick<AccessScope, 'legalEntityId'>, loginId: string): Promise<LoginView> {
      const login = (await listLogins(scope)).find((l) => l.id === loginId);
      if (!login) throw new NotFoundError(`Login '${loginId}' not found`);
      return login;
    },

    /**
     * GET /hosted/logins/{login_id}: the login and its opened secrets, with the audit record written before
     * they are returned. Null for a login not of this entity; a secret that cannot be opened throws VaultError
     * (and records nothing).
     */
    async revealLogin(
      scope: AccessScope,
      loginId: string,
      seenIn: { hostedSessionId: string; browserSessionId: string },
    ): Promise<{ login: LoginView; secrets: LoginSecrets } | null> {
      const login = (await listLogins(scope)).find((l) => l.id === loginId);
      if (!login) return null;
      const secrets = await openLoginSecrets(scope.legalEntityId, loginId);
      await repo.insertReveal({
        id: newId('rvl'),
        login_id: loginId,
        legal_entity_id: scope.legalEntityId,
        platform_id: scope.platformId,
        hosted_session_id: seenIn.hostedSessionId,
        browser_session_id: seenIn.browserSessionId,
      });
      return { login, secrets };
    },

    /** The operator's audit trail of credential views (GET /operator/v1/login_reveals, `statehouse logins reveals`). */
    listReveals: (filter: { legalEntityId?: string | undefined; platformId?: string | undefined }) => repo.findReveals(filter),

    /** Operator listing (GET /operator/v1/legal_entities/{id}/agency_accounts): any entity; an unknown one is a 404. */
    async listAccountsForOperator(legalEntityId: string): Promise<AgencyAccountView[]> {
      await requireEntity(legalEntityId);
      return listAccounts({ legalEntityId });
    },

    listAccounts,
    listLogins,
    /** The view of an account just created (it has no logins yet), without reading the others. */
    newAccountView: (row: AgencyAccountRow) => toAccountView(row, []),
    /** Unversioned location paths: the id (or two-letter code) of a location; unknown ones are a 404. */
    listAccountsForLocation: (scope: AccessScope, idOrCode: string) => listAccounts(scope, requireLocation(idOrCode).code),
    listLoginsForLocation: (scope: AccessScope, idOrCode: string) => listLogins(scope, requireLocation(idOrCode).code),
  };
}

function requireLocation(idOrCode: string): Region {
  const region = resolveRegion(idOrCode);
  if (!region) throw new NotFoundError(`Location '${idOrCode}' not found`);
  return region;
}
