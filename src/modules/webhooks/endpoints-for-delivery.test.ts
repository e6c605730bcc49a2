import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { createEndpointsForDelivery } from './endpoints-for-delivery.js';
import type { EndpointRow, WebhooksRepository } from './webhooks.repository.js';

/** A repository fake holding rows in memory and logging the calls recordOutcome makes. */
function fakeRepository(rows: Map<string, EndpointRow>, calls: string[]) {
  return {
    findForUpdate: async (id: string) => {
      calls.push(`lock ${id}`);
      return rows.get(id);
    },
    markHealthy: async (id: string, at: Date, staleBefore: Date) => {
      calls.push(`healthy ${id} ${at.getTime() - staleBefore.getTime()}`);
    },
    updateHealth: async (id: string, changes: Partial<EndpointRow>) => {
      calls.push(`update ${id}`);
      rows.set(id, { ...rows.get(id)!, ...changes });
    },
  } as unknown as WebhooksRepository;
}

const row = (id: string): EndpointRow => ({
  id,
  platform_id: 'plt_1',
  url: 'https://93.184.216.34/',
  description: null,
  event_types: null,
  status: 'enabled',
  disabled_reason: null,
  disabled_at: null,
  consecutive_failures: 0,
  failing_since: null,
  last_success_at: null,
  created_at: new Date(0),
  updated_at: new Date(0),
  deleted_at: null,
});

describe('recordOutcome', () => {
  const trx = {} as Db;
  const setup = (settings = { disableAfterHours: 1, disableAfterFailures: 2 }) => {
    const rows = new Map([['we_1', row('we_1')]]);
    const calls: string[] = [];
    const endpoints = createEndpointsForDelivery({
      db: trx,
      vault: {} as never,
      settings,
      repositoryFor: () => fakeRepository(rows, calls),
    });
    return { rows, calls, endpoints };
  };

  it('locks the row before writing it, in the transaction it is given', async () => {
    const { calls, endpoints } = setup();
    await endpoints.recordOutcome(trx, 'we_1', { ok: false, at: new Date(0), error: 'HTTP 500' });
    expect(calls).toEqual(['lock we_1', 'update we_1']);
  });

  it('applies the disabling rule over what the row holds', async () => {
    const { rows, endpoints } = setup();
    const start = Date.UTC(2026, 0, 1);
    await endpoints.recordOutcome(trx, 'we_1', { ok: false, at: new Date(start), error: 'HTTP 500' });
    await endpoints.recordOutcome(trx, 'we_1', { ok: false, at: new Date(start + 30 * 60_000), error: 'HTTP 500' });
    expect(rows.get('we_1')).toMatchObject({ status: 'enabled', consecutive_failures: 2, failing_since: new Date(start) });
    await endpoints.recordOutcome(trx, 'we_1', { ok: false, at: new Date(start + 61 * 60_000), error: 'connection refused' });
    expect(rows.get('we_1')).toMatchObject({
      status: 'disabled',
      consecutive_failures: 3,
      disabled_at: new Date(start + 61 * 60_000),
      disabled_reason: `no successful delivery since ${new Date(start).toISOString()} (3 attempts failed; last: connection refused)`,
    });
  });

  it('counts nothing for an endpoint that is gone', async () => {
    const { calls, endpoints } = setup();
    await endpoints.recordOutcome(trx, 'we_gone', { ok: false, at: new Date(), error: 'HTTP 500' });
    expect(calls).toEqual(['lock we_gone']);
  });

  it('records a success without the row lock: one conditional write, last success at most a minute stale', async () => {
    const { calls, endpoints } = setup();
    await endpoints.recordOutcome(trx, 'we_1', { ok: true, at: new Date() });
    expect(calls).toEqual(['healthy we_1 60000']);
  });
});
