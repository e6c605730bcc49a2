import { describe, expect, it } from 'vitest';
import { loadHandbookCatalog } from '../../catalog/handbook.js';
import type { HandbookQuestion } from '../../catalog/handbook.schema.js';
import { regionByCode } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import { ConflictError, InvalidInputError } from '../../lib/errors.js';
import type { LocationsService } from '../locations/index.js';
import { createHandbookLinks } from './handbook-links.js';
import type { HandbookRepository } from './handbook.repository.js';
import { createHandbookService } from './handbook.service.js';

const catalog = loadHandbookCatalog();
const scope = { platformId: 'plt_1', legalEntityId: 'le_a' };

/** The service over an in-memory draft and fake locations; records what it writes. */
function harness(locations: { code: string; hasEmployees: boolean; count: number | null }[], options: { refuseCount?: Error } = {}) {
  const saved: unknown[] = [];
  const updates: [string, number][] = [];
  let draft = { answers: {}, choices: {} };
  const repository: Partial<HandbookRepository> = {
    findDraft: async () => draft as never,
    saveDraft: async (_id, next) => {
      draft = next;
      saved.push(next);
      return [] as never;
    },
    findLatestVersion: async () => undefined,
    findEntity: async () => ({ id: 'le_a', platform_id: 'plt_1', business_name: 'Harbor Labs' }),
  };
  const fakeLocations: Pick<LocationsService, 'list' | 'updateMany'> = {
    list: async () =>
      locations.map((l) => ({
        region: regionByCode(l.code)!,
        addedBy: 'api' as never,
        config: { has_employees: l.hasEmployees, has_physical_location: null, employee_count: l.count },
      })),
    updateMany: async (_scope, changes) => {
      if (options.refuseCount) throw options.refuseCount;
      for (const [code, change] of Object.entries(changes)) updates.push([code, change.employee_count as number]);
      return [];
    },
  };
  const db = { transaction: () => ({ execute: async (work: (trx: Db) => unknown) => work(db as unknown as Db) }) } as unknown as Db;
  const service = createHandbookService({
    db,
    catalog,
    locations: fakeLocations,
    now: () => new Date('2026-11-24T10:00:00Z'),
    planning: { lock: async () => {}, replan: async () => new Map() },
    events: { record: async () => {} },
    links: createHandbookLinks({
      key: async () => Buffer.alloc(32, 1),
      publicBaseUrl: 'https://sh.example',
      ttlSeconds: 60,
      now: () => new Date(),
    }),
    repositoryFor: () => repository as HandbookRepository,
  });
  return { service, saved, updates };
}

describe('handbook service', () => {
  it('answers: nothing is saved unless every asked question has a valid answer', async () => {
    const { service, saved } = harness([{ code: 'CA', hasEmployees: true, count: 20 }]);
    const errors = await service.saveAnswers(scope, { 'q_hr-contact': '', 'q_offers-paid-vacation': 'true' });
    expect(Object.keys(errors)).toContain('q_hr-contact');
    expect(saved).toEqual([]);
    const valid = (q: HandbookQuestion) =>
      q.type === 'text' ? 'Dana' : q.type === 'choice' ? q.choices![0]!.value : q.type === 'boolean' ? 'false' : String(q.min ?? 1);
    const ok = await service.saveAnswers(scope, Object.fromEntries([...catalog.questions.values()].map((q) => [`q_${q.id}`, valid(q)])));
    expect(ok).toEqual({});
    expect(saved).toHaveLength(1);
  });

  it('employee counts: all are checked before any is written, each through the locations service', async () => {
    const { service, updates } = harness([
      { code: 'CA', hasEmployees: true, count: null },
      { code: 'NY', hasEmployees: true, count: null },
    ]);
    expect(await service.saveCounts(scope, { count_CA: '3', count_NY: '-1' })).toEqual({
      count_NY: 'Enter a whole number of employees, 1 or more.',
    });
    expect(updates).toEqual([]);
    expect(await service.saveCounts(scope, { count_CA: '3', count_NY: '12' })).toEqual({});
    expect(updates).toEqual([
      ['CA', 3],
      ['NY', 12],
    ]);
  });

  it('a count the locations rules refuse (e.g. payroll keeps it) is shown on its field', async () => {
    const { service } = harness([{ code: 'CA', hasEmployees: true, count: null }], {
      refuseCount: new ConflictError('payroll keeps the employee configuration in sync'),
    });
    expect(await service.saveCounts(scope, { count_CA: '3' })).toEqual({ count_CA: 'payroll keeps the employee configuration in sync' });
    const invalid = harness([{ code: 'CA', hasEmployees: true, count: null }], {
      refuseCount: new InvalidInputError(['CA', 'employee_count'], 'too many', 3),
    });
    expect(await invalid.service.saveCounts(scope, { count_CA: '3' })).toEqual({ count_CA: 'too many' });
  });

  it('publishing a draft that is not publishable is refused, naming what is missing', async () => {
    const { service } = harness([{ code: 'CA', hasEmployees: true, count: null }]);
    await expect(service.publish(scope)).rejects.toThrow(/Say how many employees you have in California/);
    await expect(harness([]).service.publish(scope)).rejects.toThrow(ConflictError);
  });

  it('employees: name required, e-mail optional but checked', async () => {
    const { service } = harness([]);
    expect(await service.addEmployee(scope, { name: ' ', email: 'x@y' })).toEqual({
      name: "Enter the employee's full name.",
      email: 'Enter an e-mail address like name@example.com, or leave it empty.',
    });
  });
});
