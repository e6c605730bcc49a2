import { addDays } from './dates.js';
import { HORIZON_DAYS, planTasks, type EngineInput, type PlannedTask } from './engine.js';
import type { Catalog } from '../catalog/catalog.js';

/**
 * How far past the window's end the engine looks for the next occurrence: the longest cycle (3 years) plus a margin,
 * so every recurring filing that exists shows at least once.
 */
export const LOOKAHEAD_DAYS = 4 * 366;

export interface PlanWithNextReplan {
  /** Exactly what `planTasks` returns for this input. */
  tasks: PlannedTask[];
  /**
   * The first day on which the plan changes by the date alone: the window (today + HORIZON_DAYS) then reaches the next
   * due date beyond it. With none within the lookahead, the day the window reaches the end of what was looked at
   * (planned again then, to look further).
   */
  nextReplanOn: string;
}

/**
 * The plan, and the day it next changes while the facts stay the same. Only recurring filings depend on the date
 * (occurrences due in [onboarding, today + HORIZON_DAYS]); one-time requirements and questions do not. So the plan
 * over a longer window, less the recurring occurrences due after today's window end, is today's plan, and the
 * earliest of those left out says when the window gains one.
 */
export function planWithNextReplan(catalog: Catalog, input: EngineInput): PlanWithNextReplan {
  const windowEnd = addDays(input.today, HORIZON_DAYS);
  const wide = planTasks(catalog, { ...input, today: addDays(input.today, LOOKAHEAD_DAYS) });
  const tasks: PlannedTask[] = [];
  let nextDue: string | null = null;
  for (const task of wide) {
    const recurring = task.kind === 'requirement' && task.periodKey !== 'once' && task.dueDate !== null;
    if (!recurring || task.dueDate! <= windowEnd) tasks.push(task);
    else if (nextDue === null || task.dueDate! < nextDue) nextDue = task.dueDate;
  }
  return { tasks, nextReplanOn: nextDue ? addDays(nextDue, -HORIZON_DAYS) : addDays(input.today, LOOKAHEAD_DAYS) };
}
