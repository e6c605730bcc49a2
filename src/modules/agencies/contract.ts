// What other modules use of the agencies: the connector one agency's portal implements (account connections and
// filing steps), and the registry that picks it by the catalog's agency id (docs/architecture.md, "Agencies").
import type { AutomationDefinition } from '../../catalog/catalog.schema.js';
import type { LoginSecrets } from '../../crypto/vault.js';
import type { AgencyAccountDatum, AgencyAccountDetails } from '../../db/schema.js';

// Account connections (connections module) ------------------------------------------------------------------

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
 * How Statehouse works on an existing account at an agency portal. The connections module drives a connection
 * through it one step per job: `authenticating` calls `authenticate`, `registering` calls `register` and then
 * `sync`, whose result is stored with the move to `connected` in one transaction. Implementations must be safe
 * to call again for the same step (a job can run twice after a crash); they never see the database.
 */
export interface AccountConnector {
  readonly name: string;
  /** Signs in at the agency with the credentials from the vault. */
  authenticate(credentials: LoginSecrets, account: ConnectorAccount): Promise<StepResult>;
  /** Sets up Statehouse's access to the account (e.g. registers a third-party administrator). */
  register(credentials: LoginSecrets, account: ConnectorAccount): Promise<StepResult>;
  /** Reads the account: its details and history, and data attributes to fill in. */
  sync(account: ConnectorAccount, now: Date): Promise<SyncResult>;
}

// Filings (automations module) ------------------------------------------------------------------------------

/** What a connector is told when it performs one step of one automation (never another entity's data). */
export interface ConnectorStepCall {
  automationId: string;
  /** The step to perform, e.g. `submit`, `await_state`, `signature`, `finalize` (the connector names its own). */
  step: string;
  /**
   * The idempotency key of this performance: `<automation id>:<step key>`. A step can be performed again
   * after a crash (the process died between the agency's answer and the record of it): the connector must
   * recognise the key and answer what it answered before, never file twice (e.g. send it as the portal's
   * idempotency key, or look up a filing made under it before filing).
   */
  idempotencyKey: string;
  legalEntity: { id: string; name: string; ein: string | null };
  region: string;
  agency: { id: string; name: string; website: string };
  requirement: { id: string; title: string };
  /** The whole input, sensitive values included (opened from the vault for this call only; never log it). */
  input: Record<string, unknown>;
  /** What the catalog says completing produces. */
  outputs: AutomationDefinition['outputs'];
  now: Date;
  /** Aborted when the call runs out of time (AUTOMATION_CONNECTOR_TIMEOUT_MS): stop waiting on the portal. */
  signal: AbortSignal;
}

/** A status an ongoing automation can be in while a connector works on it (automation statuses). */
export type OngoingStatus = 'started' | 'waiting_for_start_file_date' | 'waiting_on_state' | 'waiting_on_signature';

/** What a completed filing produced at the agency (the automations module writes it, as for an operator's completion). */
export interface FilingOutcome {
  /** Values of the catalog's `outputs.agency_account.data`, by name. */
  accountData?: { name: string; value: string }[];
  login?: {
    username: string;
    password: string;
    loginUrl?: string;
    securityAnswers?: { question: string; answer: string }[];
    totpSeed?: string;
  };
  /** The confirmation PDF (required unless the catalog declares no document). */
  document?: { fileName: string; bytes: Buffer };
  dates?: Record<string, string>;
}

/** What a step ended with. A throw (or the timeout) is a fault: the step is retried with backoff, then handed to a person. */
export type ConnectorStepOutcome =
  /** Go on with `next` after `afterMs`, in `status` (unchanged when absent) for `reason`. */
  | { type: 'continue'; next: string; afterMs: number; status?: OngoingStatus; reason?: string }
  /** The agency needs more from the business: `waiting_on_customer_response` with this question. */
  | { type: 'needs_customer_response'; message: string }
  /** The agency refused the filing: `canceled` with its reason. */
  | { type: 'rejected'; reason: string }
  /** Done: the outputs are written in one transaction with the task `done`. */
  | { type: 'complete'; outcome: FilingOutcome };

/**
 * How Statehouse files with an agency for a business: one call per step, driven by the `automations.step`
 * job. Implementations never see the database, and must be idempotent on `idempotencyKey`.
 */
export interface FilingConnector {
  /** Shown as the automation's performer (e.g. `sandbox`). */
  readonly name: string;
  /** The first step of a new automation (and of a new round after the owner answered a question). */
  readonly firstStep: string;
  /** The steps a person sees on the progress page, in order, with their labels. */
  readonly steps: readonly {
    key: string;
    label: string;
    /** Shown only once reached (e.g. a signature some filings need). */ optional?: boolean;
  }[];
  perform(call: ConnectorStepCall): Promise<ConnectorStepOutcome>;
}

// One agency, and the registry -------------------------------------------------------------------------------

/** One agency portal's connector: what it can do there (a portal may support only one of the two). */
export interface AgencyConnector {
  accounts?: AccountConnector;
  filings?: FilingConnector;
}

/** The account-connection connector of each agency. */
export interface AccountConnectors {
  /** Its own connector, else the sandbox; undefined: no connector connects accounts of this agency. */
  forAgency(agencyId: string): AccountConnector | undefined;
}

/** The filing connector of each agency. */
export interface FilingConnectors {
  /** Its own connector, else the sandbox when on, else none (the operator queue). */
  forAgency(agencyId: string): FilingConnector | undefined;
  /** The connector an automation's `performer` names (after a restart: the same registry, the same names). */
  byName(name: string): FilingConnector | undefined;
}

/** The registry, built once by app.ts from the configuration: connections take `accounts`, automations `filings`. */
export interface AgencyConnectors {
  accounts: AccountConnectors;
  filings: FilingConnectors;
}
