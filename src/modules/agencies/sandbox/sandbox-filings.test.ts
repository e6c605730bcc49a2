import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../catalog/catalog.js';
import { createSandboxFilingConnector, SANDBOX_PORTAL_ERROR, SANDBOX_VALUES } from './sandbox-filings.js';
import { sandboxOutcome, sandboxRate, sandboxText, valueInFormat } from './sandbox-values.js';
import type { ConnectorStepCall } from '../contract.js';

const catalog = loadCatalog();
const edd = catalog.requirement('ca-edd-employer-registration')!;
const call = (
  step: string,
  input: Record<string, unknown> = { officer_name: 'Ada' },
  signal = new AbortController().signal,
): ConnectorStepCall => ({
  automationId: 'aut_test',
  step,
  idempotencyKey: `aut_test:${step}`,
  legalEntity: { id: 'le_1', name: 'Harbor Labs', ein: '12-3456789' },
  region: 'CA',
  agency: { id: edd.agency.id, name: edd.agency.name, website: edd.agency.website },
  requirement: { id: edd.definition.id, title: edd.definition.title },
  input,
  outputs: edd.definition.resolutions.automation!.outputs,
  now: new Date('2026-11-24T10:00:00Z'),
  signal,
});

describe('sandbox values', () => {
  it('follow the format: # a digit, A a letter, the rest as written; deterministic per seed', () => {
    expect(valueInFormat('###-####-#', 'aut_1:x')).toMatch(/^\d{3}-\d{4}-\d$/);
    expect(valueInFormat('AA ######', 'aut_1:x')).toMatch(/^[A-Z]{2} \d{6}$/);
    expect(valueInFormat(undefined, 'aut_1:x')).toMatch(/^\d{9}$/);
    expect(valueInFormat('#'.repeat(40), 's')).toMatch(/^\d{40}$/);
    expect(valueInFormat('###-####-#', 'aut_1:x')).toBe(valueInFormat('###-####-#', 'aut_1:x'));
    expect(new Set(['a', 'b', 'c', 'd'].map((s) => valueInFormat('##########', s))).size).toBe(4);
    expect(sandboxRate('x')).toMatch(/^[1-5]\.\d{2}%$/);
    expect(sandboxText('Filing frequency', 'x')).toMatch(/^(Quarterly|Monthly|Semi-weekly)$/);
    expect(sandboxText('Status', 'x')).toBe('Active');
  });

  it('every automatable requirement of the catalog gets values in its own formats', () => {
    for (const region of catalog.regions.values()) {
      for (const definition of region.requirements) {
        const automation = definition.resolutions.automation;
        if (!automation) continue;
        const outcome = sandboxOutcome({
          automationId: `aut_${definition.id}`,
          entity: { name: 'X', ein: null },
          agency: { name: 'Agency', website: 'https://agency.example' },
          requirementTitle: definition.title,
          today: '2026-11-24',
          outputs: automation.outputs,
        });
        for (const datum of automation.outputs.agency_account?.data ?? []) {
          const value = outcome.accountData!.find((d) => d.name === datum.name)!.value;
          if (datum.kind === 'identifier' && datum.format) expect(value.length, definition.id).toBe(datum.format.length);
        }
        expect(Boolean(outcome.login)).toBe(automation.outputs.login);
        expect(outcome.document!.bytes.subarray(0, 5).toString()).toBe('%PDF-');
        expect(Object.keys(outcome.dates!)).toEqual(automation.outputs.dates.map((d) => d.name));
      }
    }
  });
});

describe('the sandbox agency connector', () => {
  const sandbox = createSandboxFilingConnector({ stepMs: 1234 });

  it('ordinary input: submit → await_state → finalize, each after the step pause, then the outputs', async () => {
    expect(await sandbox.perform(call('submit'))).toEqual({
      type: 'continue',
      next: 'await_state',
      afterMs: 1234,
      status: 'waiting_on_state',
      reason: 'Submitted to the state (sandbox)',
    });
    expect(await sandbox.perform(call('await_state'))).toEqual({ type: 'continue', next: 'finalize', afterMs: 1234 });
    const done = await sandbox.perform(call('finalize'));
    expect(done.type).toBe('complete');
    const outcome = (done as Extract<typeof done, { type: 'complete' }>).outcome;
    expect(outcome.accountData![0]).toEqual({ name: 'Withholding account number', value: expect.stringMatching(/^\d{10}$/) });
    expect(outcome.document!.bytes.toString('latin1')).toContain('Business: Harbor Labs');
    // Performed again under the same key, a step answers the same (idempotent by construction).
    expect(JSON.stringify(await sandbox.perform(call('finalize')))).toBe(JSON.stringify(done));
  });

  it('magic values, in any case and with spaces, produce their outcomes', async () => {
    expect(await sandbox.perform(call('await_state', { officer_name: ' REJECT ' }))).toMatchObject({ type: 'rejected' });
    expect(await sandbox.perform(call('await_state', { officer_name: SANDBOX_VALUES.needsInfo }))).toMatchObject({
      type: 'needs_customer_response',
    });
    expect(await sandbox.perform(call('await_state', { officer_name: 'signature' }))).toMatchObject({
      type: 'continue',
      next: 'signature',
      status: 'waiting_on_signature',
    });
    expect(await sandbox.perform(call('submit', { officer_name: 'start-later' }))).toMatchObject({
      next: 'file_on_date',
      status: 'waiting_for_start_file_date',
    });
    await expect(sandbox.perform(call('submit', { officer_name: 'connector-error' }))).rejects.toThrow(SANDBOX_PORTAL_ERROR);
    const controller = new AbortController();
    const hanging = sandbox.perform(call('submit', { officer_name: 'connector-timeout' }, controller.signal));
    controller.abort();
    await expect(hanging).rejects.toThrow('aborted');
    // Not a whole value: ordinary input.
    expect(await sandbox.perform(call('await_state', { officer_name: 'Rejectionist' }))).toMatchObject({
      type: 'continue',
      next: 'finalize',
    });
    await expect(sandbox.perform(call('nope'))).rejects.toThrow("no step 'nope'");
  });
});
