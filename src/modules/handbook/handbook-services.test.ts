import { describe, expect, it } from 'vitest';
import { loadHandbookCatalog } from '../../catalog/handbook.js';
import type { HandbookQuestion } from '../../catalog/handbook.schema.js';
import { regionByCode } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { HandbookAnswer } from '../../db/schema.js';
import { ConflictError, InvalidInputError } from '../../lib/errors.js';
import type { LocationsService } from '../locations/contract.js';
import type { PlanningChange } from '../planning/contract.js';
import { createHandbookAcknowledgementsService } from './handbook-acknowledgements.service.js';
import { createHandbookDraftsService } from './handbook-drafts.service.js';
import { createHandbookEmployeesService } from './handbook-employees.service.js';
import { createHandbookLinks } from './handbook-links.js';
import { createHandbookPublishingService } from './handbook-publishing.service.js';
import type { HandbookDeps } from './handbook-reads.js';
import type { HandbookRepository } from './handbook.repository.js';

const catalog = loadHandbookCatalog();
const scope = { platformId: 'plt_1', legalEntityId: 'le_a' };

/** The services over an in-memory draft, fake locations and a fake planning; records what they write and change. */
function harness(locations: { code: string; hasEmployees: boolean; count: number | null }[], options: { refuseCount?: Error } = {}) {
  const saved: unknown[] = [];
  const updates: [string, number][] = [];
  const changes: { entities: readonly string[]; outcome: PlanningChange<unknown> }[] = [];
  const completions: { legalEntityId: string; requirementId: string; regions: string[] }[] = [];
  let draft = { answers: {}, choices: {} };
  const repository: Partial<HandbookRepository> = {
    findDraft: async () => draft as never,
    saveDraft: async (_id, next) => {
      draft = next;
      saved.push(next);
      return [] as never;
    },
    findLatestVersion: async () => undefined,
    findEmployees: async () => [],
    findEntity: async () => ({ id: 'le_a', platform_id: 'plt_1', business_name: 'Harbor Labs' }),
    findAckLink: async () => ({ legal_entity_id: 'le_a', employee_id: 'emp_1', version_id: 'hbv_1' }) as never,
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
  const db = {} as Db;
  const deps: HandbookDeps = {
    db,
    catalog,
    locations: fakeLocations,
    now: () => new Date('2026-11-24T10:00:00Z'),
    planning: {
      change: async (entities, work) => {
        const ids = entities as readonly string[];
        const outcome = await work(db, ids);
        changes.push({ entities: ids, outcome });
        return { value: outcome.value, created: new Map(), updated: new Map() };
      },
    },
    events: { record: async () => {} },
    tasks: {
      completeOpen: async (_db, legalEntityId, requirementId, regions) => {
        completions.push({ legalEntityId, requirementId, regions: [...regions] });
        return ['tsk_1'];
      },
    },
    links: createHandbookLinks({
      key: async () => Buffer.alloc(32, 1),
      publicBaseUrl: 'https://sh.example',
      ttlSeconds: 60,
      now: () => new Date(),
    }),
    repositoryFor: () => repository as HandbookRepository,
  };
  return {
    drafts: createHandbookDraftsService(deps),
    employees: createHandbookEmployeesService(deps),
    publishing: createHandbookPublishingService(deps),
    acknowledgements: createHandbookAcknowledgementsService(deps),
    repository,
    saved,
    updates,
    changes,
    completions,
  };
}

const validAnswer = (q: HandbookQuestion): HandbookAnswer =>
  q.type === 'text' ? 'Dana' : q.type === 'choice' ? q.choices![0]!.value : q.type === 'boolean' ? false : (q.min ?? 1);

describe('handbook drafts', () => {
  it('answers: nothing is saved unless every asked question has an accepted answer', async () => {
    const { drafts, saved } = harness([{ code: 'CA', hasEmployees: true, count: 20 }]);
    const problems = await drafts.saveAnswers(scope, { 'hr-contact': ' ', 'offers-paid-vacation': true });
    expect(problems['hr-contact']).toBeDefined();
    expect(saved).toEqual([]);
    const answers = Object.fromEntries([...catalog.questions.values()].map((q) => [q.id, validAnswer(q)]));
    expect(await drafts.saveAnswers(scope, { ...answers, 'hr-contact': 'x'.repeat(501) })).toEqual({
      'hr-contact': 'Enter an answer of at most 500 characters.',
    });
    expect(await drafts.saveAnswers(scope, answers)).toEqual({});
    expect(saved).toHaveLength(1);
  });

  it('employee counts: all are checked before any is written, each through the locations service', async () => {
    const { drafts, updates } = harness([
      { code: 'CA', hasEmployees: true, count: null },
      { code: 'NY', hasEmployees: true, count: null },
    ]);
    expect(await drafts.saveCounts(scope, { CA: 3, NY: 0 })).toEqual({ NY: 'Enter a whole number of employees, 1 or more.' });
    expect(await drafts.saveCounts(scope, { CA: 3 })).toEqual({ NY: 'Enter a whole number of employees, 1 or more.' });
    expect(updates).toEqual([]);
    expect(await drafts.saveCounts(scope, { CA: 3, NY: 12 })).toEqual({});
    expect(updates).toEqual([
      ['CA', 3],
      ['NY', 12],
    ]);
  });

  it('a count the locations rules refuse (e.g. payroll keeps it) is a problem of its state', async () => {
    const { drafts } = harness([{ code: 'CA', hasEmployees: true, count: null }], {
      refuseCount: new ConflictError('payroll keeps the employee configuration in sync'),
    });
    expect(await drafts.saveCounts(scope, { CA: 3 })).toEqual({ CA: 'payroll keeps the employee configuration in sync' });
    const invalid = harness([{ code: 'CA', hasEmployees: true, count: null }], {
      refuseCount: new InvalidInputError(['CA', 'employee_count'], 'too many', 3),
    });
    expect(await invalid.drafts.saveCounts(scope, { CA: 3 })).toEqual({ CA: 'too many' });
  });
});

describe('handbook publishing', () => {
  it('a draft that is not publishable is refused, naming what is missing', async () => {
    const { publishing } = harness([{ code: 'CA', hasEmployees: true, count: null }]);
    await expect(publishing.publish(scope)).rejects.toThrow(/Say how many employees you have in California/);
    await expect(harness([]).publishing.publish(scope)).rejects.toThrow(ConflictError);
  });

  it('publishing is one planning change of the entity that records handbook.published', async () => {
    const { drafts, publishing, repository, changes, completions } = harness([{ code: 'CA', hasEmployees: true, count: 20 }]);
    await drafts.saveAnswers(scope, Object.fromEntries([...catalog.questions.values()].map((q) => [q.id, validAnswer(q)])));
    Object.assign(repository, {
      insertVersion: async () => {},
      insertAckLinks: async () => {},
    });
    const version = await publishing.publish(scope);
    expect(version).toMatchObject({ number: 1, regions: ['CA'] });
    expect(changes).toHaveLength(1);
    expect(changes[0]!.entities).toEqual(['le_a']);
    expect(changes[0]!.outcome.replan).not.toBe(false);
    expect(changes[0]!.outcome.cause?.events?.map((e) => e.type)).toEqual(['handbook.published']);
    // The handbook tasks of the covered states are completed through the tasks module's port, in the change.
    expect(completions).toEqual([{ legalEntityId: 'le_a', requirementId: 'employee-handbook', regions: ['CA'] }]);
    expect(changes[0]!.outcome.cause?.tasks).toEqual([{ taskId: 'tsk_1', kind: 'updated', changed: ['status'] }]);
  });
});

describe('handbook employees and acknowledgements', () => {
  it('employees: name required, e-mail optional but checked', async () => {
    const { employees, changes } = harness([]);
    expect(await employees.add(scope, { name: ' ', email: 'x@y' })).toEqual({
      name: "Enter the employee's full name.",
      email: 'Enter an e-mail address like name@example.com, or leave it empty.',
    });
    expect(changes).toEqual([]);
  });

  it('adding an employee and acknowledging take the planning lock and re-plan nothing', async () => {
    const { employees, acknowledgements, repository, changes } = harness([]);
    Object.assign(repository, {
      insertEmployee: async () => {},
      findEmployee: async () => ({ id: 'emp_1', name: 'Dana', email: null, removed_at: null }),
      findVersion: async () => ({ id: 'hbv_1', number: 1 }),
      insertAcknowledgement: async () => true,
    });
    expect(await employees.add(scope, { name: 'Dana', email: null })).toEqual({});
    expect(await acknowledgements.acknowledge('token', 'Dana')).toEqual({ state: 'acknowledged' });
    expect(changes.map((c) => [c.entities, c.outcome.replan])).toEqual([
      [['le_a'], false],
      [['le_a'], false],
    ]);
  });

  it('an acknowledgement needs the typed name', async () => {
    const { acknowledgements } = harness([]);
    expect(await acknowledgements.acknowledge('token', ' ')).toEqual({ state: 'invalid', error: 'Type your full name to acknowledge.' });
  });
});
