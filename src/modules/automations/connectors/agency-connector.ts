import type { AutomationDefinition } from '../../../catalog/catalog.schema.js';
import type { AutomationOutcome, AutomationStatus } from '../contract.js';

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

/** A status an ongoing automation can be in while a connector works on it. */
export type OngoingStatus = Extract<
  AutomationStatus,
  'started' | 'waiting_for_start_file_date' | 'waiting_on_state' | 'waiting_on_signature'
>;

/** What a step ended with. A throw (or the timeout) is a fault: the step is retried with backoff, then handed to a person. */
export type ConnectorStepOutcome =
  /** Go on with `next` after `afterMs`, in `status` (unchanged when absent) for `reason`. */
  | { type: 'continue'; next: string; afterMs: number; status?: OngoingStatus; reason?: string }
  /** The agency needs more from the business: `waiting_on_customer_response` with this question. */
  | { type: 'needs_customer_response'; message: string }
  /** The agency refused the filing: `canceled` with its reason. */
  | { type: 'rejected'; reason: string }
  /** Done: the outputs are written in one transaction with the task `done`. */
  | { type: 'complete'; outcome: AutomationOutcome };

/**
 * How Statehouse files with an agency for a business: one call per step, driven by the `automations.step`
 * job. Beside the account-connection `Connector` (connections/connector.ts), which works on existing
 * accounts. Implementations never see the database, and must be idempotent on `idempotencyKey`.
 */
export interface AgencyConnector {
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
