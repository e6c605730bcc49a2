import type { Db } from '../../db/database.js';
import { fieldError, ForbiddenError, ConflictError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { SignupService } from '../legal-entities/contract.js';
import type { PlanningSchedule, Replanner } from '../planning/contract.js';
import { MAX_ADVANCE_MONTHS, MAX_STEPS_PER_ADVANCE } from './contract.js';
import { horizonOf, nextStop, parseInstant } from './test-clocks.fns.js';
import { createTestClocksRepository, type TestClockRow, type TestClocksRepository } from './test-clocks.repository.js';

export interface TestClocksDeps {
  db: Db;
  /** false in production: every operation answers 403. */
  enabled: boolean;
  now: () => Date;
  /** Whose entity it is (a clock is made only for an entity of the calling platform). */
  entities: Pick<SignupService, 'find'>;
  /** Every move of a clock re-plans its entity in the move's transaction, as the roll-forward would on that day. */
  planning: Replanner & PlanningSchedule;
  repositoryFor?: (db: Db) => TestClocksRepository;
}

export const PRODUCTION_REFUSAL =
  'Test clocks are refused in production: they exist only on development and sandbox installations (docs/test-clocks.md)';

/** The rules of the test clocks: who may have one, how far it moves, and the re-plannings a move runs. */
export function createTestClocksService(deps: TestClocksDeps) {
  const repositoryFor = deps.repositoryFor ?? createTestClocksRepository;
  const enabled = () => {
    if (!deps.enabled) throw new ForbiddenError(PRODUCTION_REFUSAL);
  };
  const instant = (field: string, value: string) => {
    const at = parseInstant(value);
    if (!at) throw fieldError(['body', field], 'must be a date-time with its offset (2027-01-15T09:00:00Z) or a date (2027-01-15)', value);
    return at;
  };
  async function requireClock(platformId: string, id: string): Promise<TestClockRow> {
    enabled();
    const clock = await repositoryFor(deps.db).find(platformId, id);
    if (!clock) throw new NotFoundError(`Test clock '${id}' not found`);
    return clock;
  }
  /** Moves the clock to `at` and re-plans its entity with that "today", in one transaction. */
  const moveTo = async (clock: TestClockRow, at: Date) =>
    (
      await deps.planning.change([clock.legal_entity_id], async (trx) => ({
        value: await repositoryFor(trx).setFrozen(clock.legal_entity_id, clock.id, at),
      }))
    ).value;

  return {
    async create(platformId: string, input: { legal_entity_id: string; frozen_time?: string | null }): Promise<TestClockRow> {
      enabled();
      const now = deps.now();
      const frozen = input.frozen_time ? instant('frozen_time', input.frozen_time) : now;
      // Before today would re-plan with a past "today"; the horizon is one advance's.
      if (frozen.getTime() < now.getTime() - 86_400_000 || frozen > horizonOf(now))
        throw fieldError(['body', 'frozen_time'], `must be from now to ${MAX_ADVANCE_MONTHS} months ahead`, input.frozen_time);
      const entity = await deps.entities.find(input.legal_entity_id);
      if (!entity || entity.platform_id !== platformId) throw new NotFoundError(`Legal entity '${input.legal_entity_id}' not found`);
      const { value } = await deps.planning.change([entity.id], async (trx) => {
        // Under the entity's planning lock: two creations for one entity cannot both pass this check.
        const repo = repositoryFor(trx);
        if (await repo.findForEntity(entity.id))
          throw new ConflictError(`Legal entity '${entity.id}' already has a test clock: advance or delete it`);
        return {
          value: await repo.insert({ id: newId('clock'), platform_id: platformId, legal_entity_id: entity.id, frozen_time: frozen }),
        };
      });
      return value;
    },

    get: requireClock,

    async list(platformId: string): Promise<TestClockRow[]> {
      enabled();
      return repositoryFor(deps.db).list(platformId);
    },

    /**
     * Forward only, at most MAX_ADVANCE_MONTHS per call. The clock stops at every day the entity's plan changes on
     * (its next_replan_on, as the daily roll-forward would find it due) and re-plans there, then at `to`: the tasks,
     * dates and events are those the days crossed would have made.
     */
    async advance(platformId: string, id: string, to: string): Promise<TestClockRow> {
      let clock = await requireClock(platformId, id);
      const target = instant('to', to);
      if (target <= clock.frozen_time)
        throw fieldError(
          ['body', 'to'],
          `must be later than the clock's frozen_time (${clock.frozen_time.toISOString()}): clocks only move forward`,
          to,
        );
      if (target > horizonOf(clock.frozen_time))
        throw fieldError(
          ['body', 'to'],
          `must be at most ${MAX_ADVANCE_MONTHS} months after the clock's frozen_time (${clock.frozen_time.toISOString()}); advance again for more`,
          to,
        );
      for (let step = 0; step < MAX_STEPS_PER_ADVANCE && clock.frozen_time < target; step++) {
        const next = await deps.planning.nextReplanOn(clock.legal_entity_id);
        clock = await moveTo(clock, step === MAX_STEPS_PER_ADVANCE - 1 ? target : nextStop(clock.frozen_time, target, next));
      }
      return clock;
    },

    /** Real time again for the entity: the clock goes and the entity is re-planned on today's date, in one transaction. */
    async remove(platformId: string, id: string): Promise<void> {
      const clock = await requireClock(platformId, id);
      await deps.planning.change([clock.legal_entity_id], async (trx) => ({
        value: await repositoryFor(trx).remove(clock.legal_entity_id, clock.id),
      }));
    },
  };
}

export type TestClocksService = ReturnType<typeof createTestClocksService>;
