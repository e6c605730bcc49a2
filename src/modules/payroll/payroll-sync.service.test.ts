import { describe, expect, it } from 'vitest';
import { regionByCode, regionById } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import { ConflictError, InvalidInputError } from '../../lib/errors.js';
import type { EntityLocation } from '../locations/contract.js';
import type { Replanner } from '../planning/contract.js';
import { createPayrollSyncService } from './payroll-sync.service.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const scope = { platformId: 'plt_1', legalEntityId: 'le_a' };
const CA = regionByCode('CA')!;
const NY = regionByCode('NY')!;

/**
 * The sync service over fakes that record, in order, what happens in which transaction: the planning lock,
 * the connection's row lock, the locations' reads and writes, the sync time and the re-planning.
 */
function harness(options: { connected?: boolean; locations?: EntityLocation[] } = {}) {
  const events: string[] = [];
  let transactions = 0;
  let stored = options.locations ?? [
    { region: CA, config: { has_employees: true, has_physical_location: true, employee_count: 12 }, addedBy: 'api' },
  ];
  const db = {
    transaction: () => ({ execute: async <T>(fn: (trx: Db) => Promise<T>) => fn({ trx: ++transactions } as unknown as Db) }),
  } as unknown as Db;
  const trxOf = (trx: Db) => (trx as unknown as { trx?: number }).trx ?? 'db';
  // legal-entities' port over the connection columns.
  const connections = {
    connectionForUpdate: async (on: Db) => {
      events.push(`connection in ${trxOf(on)}`);
      return { payroll_connected_at: options.connected === false ? null : NOW, last_payroll_update: null };
    },
    recordSync: async (on: Db, _le: string, at: Date) => void events.push(`sync ${at.toISOString()} in ${trxOf(on)}`),
  };
  // planning.change: its own transaction, the lock, the work, then the re-planning unless the work says not to.
  const planning: Replanner = {
    change: (entities, work) =>
      db.transaction().execute(async (trx) => {
        events.push(`lock in ${trxOf(trx)}`);
        const outcome = await work(trx, entities as string[]);
        if (outcome.replan !== false) {
          events.push(
            `replan in ${trxOf(trx)}`,
            ...(outcome.cause?.events ?? []).map(
              (e) => `${e.type} ${String((e.data.object.location as { code: string }).code)} ${e.data.changed?.join(',')}`,
            ),
          );
        }
        return { value: outcome.value, created: new Map(), updated: new Map() };
      }),
  };
  const locations = {
    lockAllIn: async (trx: Db) => {
      events.push(`locations in ${trxOf(trx)}`);
      return stored.map((l) => ({ ...l, config: { ...l.config } }));
    },
    setEmployeesFromPayrollIn: async (trx: Db, _le: string, regionId: string, count: number) => {
      events.push(`set ${regionId}=${count} in ${trxOf(trx)}`);
      const existing = stored.find((l) => l.region.id === regionId);
      const config = {
        has_employees: count > 0,
        has_physical_location: existing?.config.has_physical_location ?? null,
        employee_count: count,
      };
      stored = existing
        ? stored.map((l) => (l === existing ? { ...l, config } : l))
        : [...stored, { region: regionById(regionId)!, config, addedBy: 'payroll' as const }];
    },
  };
  const sync = createPayrollSyncService({ db, connections, locations, planning, now: () => NOW });
  return { sync, events, transactions: () => transactions };
}

describe('payroll sync service', () => {
  it('locks, checks the connection, writes only differences, records the sync and re-plans once, all in one transaction', async () => {
    const h = harness();
    const result = await h.sync.reportEmployees(scope, [
      { region: 'CA', employee_count: 12 },
      { region: 'NY', employee_count: 3 },
    ]);
    expect(h.events).toEqual([
      'lock in 1',
      'connection in 1',
      'locations in 1',
      `set ${NY.id}=3 in 1`,
      `sync ${NOW.toISOString()} in 1`,
      'locations in 1',
      'replan in 1',
      'location.updated NY location,has_employees,employee_count',
    ]);
    expect(result).toMatchObject({ legalEntityId: 'le_a', added: [NY], updated: [], lastPayrollUpdate: NOW });
    expect(result.locations.map((l) => [l.region.code, l.config.employee_count, l.addedBy])).toEqual([
      ['CA', 12, 'api'],
      ['NY', 3, 'payroll'],
    ]);
  });

  it('a report that confirms the picture records the sync and does not re-plan', async () => {
    const h = harness();
    const result = await h.sync.reportEmployees(scope, [{ region: 'CA', employee_count: 12 }]);
    expect(h.events).toEqual(['lock in 1', 'connection in 1', 'locations in 1', `sync ${NOW.toISOString()} in 1`]);
    expect(result).toMatchObject({ added: [], updated: [] });
  });

  it('refuses a repeated region before opening a transaction, naming the second mention', async () => {
    const h = harness();
    const error = await h.sync
      .reportEmployees(scope, [
        { region: 'NY', employee_count: 1 },
        { region: 'CA', employee_count: 2 },
        { region: 'NY', employee_count: 1 },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ path: ['regions', 2, 'region'], input: 'NY' });
    expect(h.transactions()).toBe(0);
  });

  it('refuses a report while payroll is not connected, before touching a location', async () => {
    const h = harness({ connected: false });
    await expect(h.sync.reportEmployees(scope, [{ region: 'CA', employee_count: 1 }])).rejects.toBeInstanceOf(ConflictError);
    expect(h.events).toEqual(['lock in 1', 'connection in 1']);
  });
});
