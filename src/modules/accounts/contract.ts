// What other modules use of the accounts module, the one writer of `agency_accounts` and `account_logins`:
// the service, the port a connection writes through, the wire schemas events compose, the input checks.
import type { Region } from '../../catalog/regions.js';
import type { LoginSecrets } from '../../crypto/vault.js';
import type { Db } from '../../db/database.js';
import type { AgencyAccountDataStatus, AgencyAccountDatum, AgencyAccountDetails, AgencyAccountRow } from '../../db/schema.js';
import type { AccessScope } from '../../http/principals.js';

export { AGENCY_DATA_STATUSES, AccountLoginV2Schema, AgencyAccountV2Schema } from './accounts.schemas.js';
export { MAX_SECRET_TEXT, validateSecrets } from './accounts.input.js';
export { parseCredentialsForm } from './credentials.input.js';

export interface NewAgencyAccount {
  region_code: string;
  /** An agency of the catalog for that region, e.g. `ca-edd`. */
  agency_id: string;
  name: string;
  data?: { name: string; description?: string | null; value?: string | null; status?: AgencyAccountDataStatus }[];
}

export interface NewAccountLogin {
  agency_account_id?: string | null;
  region_code: string;
  name: string;
  login_url: string;
  is_supported?: boolean;
  secrets: LoginSecrets;
}

export interface LoginView {
  id: string;
  name: string;
  region: Region;
  agencyAccountId: string | null;
  loginUrl: string;
  isSupported: boolean;
  /** Where the credentials can be revealed (a hosted session); never the credentials themselves. */
  revealPath: string;
  /** When the login (its credentials included) last changed. */
  updatedAt?: Date;
}

export interface AgencyAccountView {
  id: string;
  name: string;
  region: Region;
  agency: { id: string; name: string; website: string };
  data: AgencyAccountDatum[];
  logins: LoginView[];
}

/** One view of a login's credentials, in the operator's audit trail. */
export interface LoginRevealRecord {
  id: string;
  login_id: string;
  login_name: string;
  legal_entity_id: string;
  platform_id: string;
  hosted_session_id: string;
  browser_session_id: string;
  revealed_at: Date;
}

/** What a completed filing leaves at the agency (automations): an account with its data, and a login if any. */
export interface FiledAccount {
  regionCode: string;
  agencyId: string;
  name: string;
  data: { name: string; value: string }[];
  login?: { loginUrl: string; secrets: LoginSecrets };
}

/** What a connection learned at the agency (its connector's sync), recorded with its move to `connected`. */
export interface AccountSync {
  details: AgencyAccountDetails;
  /** Data attributes, merged into the account's data by name. */
  attributes: { name: string; description: string; value: string }[];
  /** The connection's login: it worked at the agency, so it is marked supported. */
  loginId: string | null;
}

/** What the connections module does to accounts and logins: it writes them only through here. */
export interface AccountsConnectionPort {
  /** Decrypts one login's secrets, for hosted pages and connectors only (never an API response). */
  openLoginSecrets(legalEntityId: string, loginId: string): Promise<LoginSecrets>;
  /**
   * Stores credentials a person typed on a hosted page: with `loginId` they replace that login's secrets;
   * without, they become a new login of the agency account. Returns the login (never the secrets).
   */
  saveLoginCredentials(
    legalEntityId: string,
    input: { agencyAccountId: string; loginId?: string | null; secrets: LoginSecrets },
  ): Promise<LoginView>;
  /** Locks the account's row in `trx` (concurrent connects of one account queue behind it); undefined: not the entity's. */
  lockAccount(trx: Db, legalEntityId: string, accountId: string): Promise<{ id: string } | undefined>;
  /** Writes a sync in `trx`: the details, the attributes merged, the login supported, agency_account.updated. */
  recordSync(trx: Db, legalEntityId: string, accountId: string, sync: AccountSync): Promise<void>;
}

/** Agency accounts and logins: listings, operator records, hosted credentials, and the writes other modules make. */
export interface AccountsService extends AccountsConnectionPort {
  /** Operator operation (CLI, operator API); `andThen` runs in the insert's transaction (the audit line). */
  createAccount(
    legalEntityId: string,
    input: NewAgencyAccount,
    andThen?: (trx: Db, created: { id: string }) => Promise<void>,
  ): Promise<AgencyAccountRow>;
  /** Operator operation: records a login, its secrets sealed before they reach the database. */
  createLogin(
    legalEntityId: string,
    input: NewAccountLogin,
    andThen?: (trx: Db, created: { id: string }) => Promise<void>,
  ): Promise<LoginView>;
  /** The hosted accounts page: new username and password of any login of the entity (TOTP seed and answers merged). */
  updateLoginCredentials(legalEntityId: string, loginId: string, secrets: LoginSecrets): Promise<LoginView>;
  /** What a completed filing leaves, written in the caller's transaction (automations). */
  recordFiledAccount(trx: Db, legalEntityId: string, input: FiledAccount): Promise<{ accountId: string; loginId: string | null }>;
  /** One login of the entity (its view, never its secrets); unknown or another entity's: 404. */
  requireLogin(scope: Pick<AccessScope, 'legalEntityId'>, loginId: string): Promise<LoginView>;
  /** The login and its opened secrets, with the audit record written first; null for a login not of this entity. */
  revealLogin(
    scope: AccessScope,
    loginId: string,
    seenIn: { hostedSessionId: string; browserSessionId: string },
  ): Promise<{ login: LoginView; secrets: LoginSecrets } | null>;
  /** The operator's audit trail of credential views. */
  listReveals(filter: { legalEntityId?: string | undefined; platformId?: string | undefined }): Promise<LoginRevealRecord[]>;
  /** Operator listing: any entity; an unknown one is a 404. */
  listAccountsForOperator(legalEntityId: string): Promise<AgencyAccountView[]>;
  listAccounts(scope: Pick<AccessScope, 'legalEntityId'>, regionCode?: string): Promise<AgencyAccountView[]>;
  listLogins(scope: Pick<AccessScope, 'legalEntityId'>, regionCode?: string): Promise<LoginView[]>;
  /** The view of an account just created (it has no logins yet). */
  newAccountView(row: AgencyAccountRow): AgencyAccountView;
  /** Unversioned location paths: the id (or two-letter code) of a location; unknown ones are a 404. */
  listAccountsForLocation(scope: AccessScope, idOrCode: string): Promise<AgencyAccountView[]>;
  listLoginsForLocation(scope: AccessScope, idOrCode: string): Promise<LoginView[]>;
}
