import type { ConnectorStepCall, ConnectorStepOutcome, FilingConnector } from '../contract.js';
import { sandboxOutcome } from './sandbox-values.js';

/**
 * The sandbox's test data: a string field of the input equal to one of these (any case, trimmed) produces
 * that outcome, like a payment sandbox's test card numbers (docs/automations.md, "The sandbox's test data").
 */
export const SANDBOX_VALUES = {
  /** The state refuses the filing: `canceled` with its reason. */
  reject: 'reject',
  /** The state asks for more: `waiting_on_customer_response` with its question, until an answer without this value. */
  needsInfo: 'needs-info',
  /** A signature is needed: `waiting_on_signature`, then `complete`. */
  signature: 'signature',
  /** The filing can start only later: `waiting_for_start_file_date` first, then as usual. */
  startLater: 'start-later',
  /** The portal fails at every try: retried with backoff, then handed to the operator queue. */
  connectorError: 'connector-error',
  /** The portal never answers: each try runs out of time, then as `connector-error`. */
  connectorTimeout: 'connector-timeout',
} as const;

export const SANDBOX_REJECTED_REASON =
  'The state rejected the filing: the business details do not match its records (sandbox test value "reject")';
export const SANDBOX_QUESTION =
  'The state needs more information: confirm the details you entered and correct any that differ from your formation documents (sandbox test value "needs-info")';
export const SANDBOX_PORTAL_ERROR = 'The agency portal answered 503 Service Unavailable (sandbox test value "connector-error")';

const has = (input: Record<string, unknown>, value: string) =>
  Object.values(input).some((v) => typeof v === 'string' && v.trim().toLowerCase() === value);

/** Resolves when the call is aborted (its timeout), never otherwise: a portal that hangs. */
const hang = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

/**
 * The sandbox's filing connector: no network, deterministic from the automation id and its input. An ordinary input
 * goes `submit` → `await_state` → `finalize` (`waiting_on_state` in between), each after `stepMs`; its
 * outputs are generated from the catalog's formats (sandbox-values.ts). Every step is a pure function of the
 * call, so performing one again under the same key answers the same: idempotent by construction.
 */
export function createSandboxFilingConnector(options: { stepMs: number }): FilingConnector {
  const after = (
    next: string,
    extra: Omit<Extract<ConnectorStepOutcome, { type: 'continue' }>, 'type' | 'next' | 'afterMs'> = {},
  ): ConnectorStepOutcome => ({ type: 'continue', next, afterMs: options.stepMs, ...extra });

  const steps: Record<string, (call: ConnectorStepCall) => Promise<ConnectorStepOutcome>> = {
    async submit(call) {
      if (has(call.input, SANDBOX_VALUES.connectorError)) throw new Error(SANDBOX_PORTAL_ERROR);
      if (has(call.input, SANDBOX_VALUES.connectorTimeout)) return hang(call.signal);
      if (has(call.input, SANDBOX_VALUES.startLater)) {
        return after('file_on_date', {
          status: 'waiting_for_start_file_date',
          reason: 'The state accepts this filing from a later date (sandbox)',
        });
      }
      return after('await_state', { status: 'waiting_on_state', reason: 'Submitted to the state (sandbox)' });
    },
    async file_on_date() {
      return after('await_state', { status: 'waiting_on_state', reason: 'Submitted to the state (sandbox)' });
    },
    async await_state(call) {
      if (has(call.input, SANDBOX_VALUES.reject)) return { type: 'rejected', reason: SANDBOX_REJECTED_REASON };
      if (has(call.input, SANDBOX_VALUES.needsInfo)) return { type: 'needs_customer_response', message: SANDBOX_QUESTION };
      if (has(call.input, SANDBOX_VALUES.signature))
        return after('signature', { status: 'waiting_on_signature', reason: 'The state asks for a signature (sandbox)' });
      return after('finalize');
    },
    async signature() {
      return after('finalize', { status: 'waiting_on_state', reason: 'Signed (sandbox)' });
    },
    async finalize(call) {
      return {
        type: 'complete',
        outcome: sandboxOutcome({
          automationId: call.automationId,
          entity: call.legalEntity,
          agency: call.agency,
          requirementTitle: call.requirement.title,
          today: call.now.toISOString().slice(0, 10),
          outputs: call.outputs,
        }),
      };
    },
  };

  return {
    name: 'sandbox',
    firstStep: 'submit',
    steps: [
      { key: 'submit', label: 'Submit the filing to the agency' },
      { key: 'file_on_date', label: 'Wait for the date the agency accepts it', optional: true },
      { key: 'await_state', label: 'The agency reviews it' },
      { key: 'signature', label: 'Signature', optional: true },
      { key: 'finalize', label: 'Record the account, login and confirmation' },
    ],
    async perform(call) {
      const step = steps[call.step];
      if (!step) throw new Error(`The sandbox connector has no step '${call.step}'`);
      return step(call);
    },
  };
}
