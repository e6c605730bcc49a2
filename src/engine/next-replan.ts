import type { Catalog } from '../catalog/catalog.js';
import { addDays } from './dates.js';
import { HORIZON_DAYS, planTasksAndNextDue } from './engine.js';
import type { EngineInput, PlannedTask } from './engine.types.js';
import { LOOKAHEAD_YEARS } from './schedule.js';

/** With no due date found past the window, the entity is looked at again after this many days (what was looked through). */
export const LOOKAHEAD_DAYS = LOOKAHEAD_YEARS * 366;

export interface PlanWithNextReplan {
  /** Exactly what `planTasks` returns for this input. */
  tasks: PlannedTask[];
  /**
   * The first day on which the plan changes by the date alone: the window (today + HORIZON_DAYS) then reaches the next
   * due date beyond it. With none within the lookahead, the day the window reaches the end of what was looked through
   * (planned again then, to look further).
   */
  nextReplanOn: string;
}

/**
 * The plan, and the day it next changes while the facts stay the same. Only recurring filings depend on the date
 * (occurrences due in [onboarding, today + HORIZON_DAYS]); one-time requirements and questions do not. The engine
 * notes, for each recurring requirement that applies, its first due date past the window (src/engine/schedule.ts
 * `nextDue`): the earliest of them, less the window's length, is when the window gains an occurrence.
 */
export function planWithNextReplan(catalog: Catalog, input: EngineInput): PlanWithNextReplan {
  const { tasks, nextDue } = planTasksAndNextDue(catalog, input);
  return { tasks, nextReplanOn: nextDue ? addDays(nextDue, -HORIZON_DAYS) : addDays(input.today, LOOKAHEAD_DAYS) };
}
