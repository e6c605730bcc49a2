import type { AgencyAccountDatum, AgencyAccountDetails } from '../../db/schema.js';
import type { LoginSecrets } from '../../crypto/vault.js';

/** What a connector is told about the agency account it works on (never another entity's). */
export interface ConnectorAccount {
  id: string;
  legalEntityId: string;
  regionCode: string;
  /** Catalog agency id, e.g. `ca-edd`. */
  agencyId: string;
  name: string;
  data: AgencyAccountDatum[];
}

/** A step's outcome: go on, or stop with a reason the person can act on (never containing a secret). */
export type StepResult = { ok: true } | { ok: false; reason: string };

/** One data attribute of the account learned at the agency (merged into `agency_accounts.data` by name). */
export interface LearnedAttribute {
  name: string;
  description: string;
  value: string;
}

export interface SyncResult {
  details: AgencyAccountDetails;
  attributes: LearnedAttribute[];
}

/**
 * How Statehouse talks to an agency portal. The service drives a connection through it one step per job:
 * `authenticating` calls `authenticate`, `registering` calls `register` and then `sync`, whose result is
 * stored with the move to `connected` in one transaction. Implementations must be safe to call again for
 * the same step (a job can run twice after a crash); they never see the database.
 */
export interface Connector {
  readonly name: string;
  /** Signs in at the agency with the credentials from the vault. */
  authenticate(credentials: LoginSecrets, account: ConnectorAccount): Promise<StepResult>;
  /** Sets up Statehouse's access to the account (e.g. registers a third-party administrator). */
  register(credentials: LoginSecrets, account: ConnectorAccount): Promise<StepResult>;
  /** Reads the account: its details and history, and data attributes to fill in. */
  sync(account: ConnectorAccount, now: Date): Promise<SyncResult>;
}
