import type { AutomationProgress } from './automation-progress-pages.js';

/** A task as the hosted pages show it. */
export interface TaskItem {
  id: string;
  kind: 'requirement' | 'question';
  title: string;
  summary: string | null;
  description: string;
  regionCode: string;
  regionName: string;
  status: 'todo' | 'in-progress' | 'done' | 'dismissed';
  dueDate: string | null;
  overdue: boolean;
  /** "due in 3 days", "overdue by 2 days": open work due soon or late (pages/dates.ts, dueHint). */
  dueHint: string | null;
  /**
   * The rule behind the due date ("Due January 31 every year, …") and whether the date is exact; when estimated, the
   * question whose answer makes it exact (`taskId` when the page can link to it). null without a due date.
   */
  dueBasis: { rule: string; exact: boolean; question: { title: string; taskId: string | null } | null } | null;
  /** The catalog's category (registration, payroll, …): the list can group by it. */
  category: string;
  fee: string | null;
  priority: string;
  reasons: string[];
  resources: { title: string; url: string }[];
  steps: { title: string; description: string; url?: string | undefined }[];
  agency: string | null;
  blockedBy: string[];
  unlocks: string[];
  answerType: 'boolean' | 'number' | 'date' | null;
  answer: string | null;
  /** What was typed in a refused answer: shown in the field instead of the stored answer. */
  typed?: string | null;
  /** Automatable tasks: the latest automation's status (null before any) and, once complete, its results. */
  automation: TaskAutomationItem | null;
}

export interface TaskAutomationItem {
  status: AutomationProgress['status'] | null;
  results: { name: string; value: string }[];
  /** The confirmation document's signed download link, once complete. */
  documentUrl: string | null;
}

/** An automation that has started and not finished (complete or canceled): Statehouse is filing the task. */
export const filingUnderWay = (task: TaskItem) =>
  !!task.automation?.status && task.automation.status !== 'complete' && task.automation.status !== 'canceled';

export const STATUS_LABELS: Record<TaskItem['status'], string> = {
  todo: 'To do',
  'in-progress': 'In progress',
  done: 'Done',
  dismissed: 'Dismissed',
};

/** The catalog's task categories as the owner reads them (TASK_CATEGORIES and the questions' categories). */
export const CATEGORY_LABELS: Record<string, string> = {
  registration: 'Registration',
  'registration-maintenance': 'Keeping registrations current',
  payroll: 'Payroll',
  tax: 'Tax',
  'sales-tax': 'Sales tax',
  hr: 'Employees and HR',
  insurance: 'Insurance',
};
export const categoryLabel = (category: string) => CATEGORY_LABELS[category] ?? category;
