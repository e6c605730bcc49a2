import type { TaskRow } from '../../db/schema.js';

export type TaskStatus = TaskRow['status'];

/**
 * Allowed status changes. Open work moves freely; finished work (done or dismissed) can only
 * be reopened to todo. Setting the current status again is a no-op.
 */
export const TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  todo: ['in-progress', 'done', 'dismissed'],
  'in-progress': ['todo', 'done', 'dismissed'],
  done: ['todo'],
  dismissed: ['todo'],
};

export const canTransition = (from: TaskStatus, to: TaskStatus) => from === to || TRANSITIONS[from].includes(to);

/** Open work: not finished (done) nor set aside (dismissed). */
export const isOpen = (status: TaskStatus) => status === 'todo' || status === 'in-progress';

/** Open, with a due date before today (YYYY-MM-DD). */
export const isOverdue = (task: { status: TaskStatus; dueDate: string | null }, today: string) =>
  isOpen(task.status) && !!task.dueDate && task.dueDate < today;

const PRIORITY_RANK = { high: 0, medium: 1, low: 2 } as const;
const DUE_SOON_DAYS = 30;

export interface Rankable {
  status: TaskStatus;
  dueDate: string | null;
  priority: 'high' | 'medium' | 'low';
  /** How many other requirements wait for this one. */
  unlocks: number;
  regionCode: string;
  title: string;
}

/**
 * "Ordered by importance" (GET /tasks), most important first:
 * 1. open tasks (todo, in-progress) before finished ones;
 * 2. overdue, then due within 30 days, then the rest;
 * 3. tasks other requirements wait for, before those none do;
 * 4. priority high, medium, low;
 * 5. earlier due date first, tasks without a due date after dated ones;
 * 6. region code, then title, so the order is stable.
 */
export function compareByImportance(today: string): (a: Rankable, b: Rankable) => number {
  const soon = new Date(Date.parse(`${today}T00:00:00Z`) + DUE_SOON_DAYS * 86_400_000).toISOString().slice(0, 10);
  const urgency = (t: Rankable) => (t.dueDate === null ? 2 : t.dueDate < today ? 0 : t.dueDate <= soon ? 1 : 2);
  const open = (t: Rankable) => (isOpen(t.status) ? 0 : 1);
  return (a, b) =>
    open(a) - open(b) ||
    urgency(a) - urgency(b) ||
    (b.unlocks > 0 ? 1 : 0) - (a.unlocks > 0 ? 1 : 0) ||
    PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
    compareDue(a.dueDate, b.dueDate, 'last') ||
    a.regionCode.localeCompare(b.regionCode) ||
    a.title.localeCompare(b.title);
}

/** Due date ascending; tasks without one first or last. */
export function compareDue(a: string | null, b: string | null, undated: 'first' | 'last'): number {
  if (a === b) return 0;
  if (a === null) return undated === 'first' ? -1 : 1;
  if (b === null) return undated === 'first' ? 1 : -1;
  return a < b ? -1 : 1;
}

export interface TaskFilter {
  definitionId?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  statuses?: TaskStatus[] | null;
  tags?: string[] | null;
  categories?: string[] | null;
  regionCode?: string | null;
  kind?: 'requirement' | 'question' | null;
}

/**
 * `start_date`/`end_date` keep tasks whose due date falls in the range (inclusive); tasks without a due
 * date are kept only when no date filter is given. `tags` and `categories` match any of the values given.
 */
export function matchesFilter(
  task: {
    definitionId: string;
    dueDate: string | null;
    status: TaskStatus;
    tags: readonly string[];
    category: string;
    regionCode: string;
    kind: string;
  },
  filter: TaskFilter,
): boolean {
  if (filter.definitionId && task.definitionId !== filter.definitionId) return false;
  if (filter.startDate && (task.dueDate === null || task.dueDate < filter.startDate)) return false;
  if (filter.endDate && (task.dueDate === null || task.dueDate > filter.endDate)) return false;
  if (filter.statuses && filter.statuses.length > 0 && !filter.statuses.includes(task.status)) return false;
  if (filter.tags && filter.tags.length > 0 && !filter.tags.some((tag) => task.tags.includes(tag))) return false;
  if (filter.categories && filter.categories.length > 0 && !filter.categories.includes(task.category)) return false;
  if (filter.regionCode && task.regionCode !== filter.regionCode) return false;
  if (filter.kind && task.kind !== filter.kind) return false;
  return true;
}
