// What the hosted task pages show of a task (TaskItem): the view mapped once, with its due-date hint and fee in words.
import type { Catalog } from '../../catalog/catalog.js';
import { questionTitle } from '../../catalog/question-title.js';
import { dueHint } from '../../pages/dates.js';
import type { TaskItem } from '../../pages/task-item.js';
import { automationOf } from './task-view.js';
import { isOpen, isOverdue } from './tasks.fns.js';
import type { TaskView } from './tasks.service.js';

function formatFee(view: TaskView): string | null {
  if (view.kind === 'question') return null;
  const fee = view.definition.fee;
  if (fee.type === 'fixed') return fee.amount === '0.00' ? 'None' : `$${fee.amount}`;
  if (fee.type === 'range') return `$${fee.min} to $${fee.max}`;
  return fee.reason;
}

/** The id of the question task (of a region) that the page may link to; null when there is none in the page's scope. */
export type QuestionTaskLookup = (questionId: string, regionCode: string) => string | null;

/** The rule behind the due date and, when estimated, the question that makes it exact (linked when the page can). */
function dueBasisOf(catalog: Catalog, view: TaskView, findQuestion: QuestionTaskLookup): TaskItem['dueBasis'] {
  const { row } = view;
  if (!row.due_date || row.due_date_rule === null) return null;
  const exact = row.due_date_exact ?? true;
  const question = !exact && row.due_date_question ? catalog.questions.find((q) => q.id === row.due_date_question) : undefined;
  return {
    rule: row.due_date_rule,
    exact,
    question: question
      ? {
          title: questionTitle(catalog, question, view.region.code, view.region.name, 'once'),
          taskId: findQuestion(question.id, view.region.code),
        }
      : null,
  };
}

/** What a hosted page shows of a task. */
export function toTaskItem(
  catalog: Catalog,
  view: TaskView,
  today: string,
  documents: ReadonlyMap<string, string> = new Map(),
  findQuestion: QuestionTaskLookup = () => null,
): TaskItem {
  const common = {
    id: view.row.id,
    regionCode: view.region.code,
    regionName: view.region.name,
    status: view.row.status,
    dueDate: view.row.due_date,
    overdue: isOverdue({ status: view.row.status, dueDate: view.row.due_date }, today),
    dueHint: view.row.due_date && isOpen(view.row.status) ? dueHint(today, view.row.due_date) : null,
    dueBasis: dueBasisOf(catalog, view, findQuestion),
    category: view.kind === 'question' ? view.question.category : view.definition.category,
    reasons: view.row.criteria_met.map((c) => c.reason),
    blockedBy: view.row.blocked_by.map((id) => catalog.requirement(id)?.definition.title ?? id),
  };
  if (view.kind === 'question') {
    return {
      ...common,
      kind: 'question',
      title: questionTitle(catalog, view.question, view.region.code, view.region.name, view.row.period_key),
      summary: null,
      description: view.question.description,
      fee: null,
      priority: view.question.priority,
      resources: [],
      steps: [],
      agency: null,
      unlocks: [],
      answerType: view.question.answer_type,
      answer: view.row.answer === null || view.row.answer === undefined ? null : String(view.row.answer),
      automation: null,
    };
  }
  const d = view.definition;
  return {
    ...common,
    kind: 'requirement',
    title: d.title,
    summary: d.summary,
    description: d.description,
    fee: formatFee(view),
    priority: d.priority,
    resources: d.resources.map((r) => ({ ...r })),
    steps: d.resolutions.manual.map((s) => ({ ...s })),
    agency: view.agency.name,
    unlocks: (d.unlocks ?? []).map((id) => catalog.requirement(id)?.definition.title ?? id),
    answerType: null,
    answer: null,
    automation: automationOf(view)
      ? {
          status: view.automation?.status ?? null,
          results: view.automation?.outputs?.accountData.map((d) => ({ ...d })) ?? [],
          documentUrl: documents.get(view.automation?.outputs?.documentId ?? '') ?? null,
        }
      : null,
  };
}
