import { automationStatusText, type AutomationProgress } from './automation-progress-pages.js';
import { calendarSection, type CalendarOffer } from './calendar-pages.js';
import { csrfInput } from './components.js';
import { dayTime, formatDay } from './dates.js';
import { html, layout, type Raw, type PageBrand } from './html.js';

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

function automationBadge(task: TaskItem): Raw {
  const a = task.automation;
  return a?.status ? html` <span class="badge automation-${a.status}">Automation: ${automationStatusText(a.status)}</span>` : html``;
}

/** A complete automation's results: what the agency assigned and the confirmation. */
function automationResults(task: TaskItem): Raw {
  const a = task.automation;
  if (a?.status !== 'complete' || (a.results.length === 0 && !a.documentUrl)) return html``;
  return html`<dl class="summary results">
${a.results.map((r) => html`<div><dt>${r.name}</dt><dd>${r.value}</dd></div>`)}
${a.documentUrl ? html`<div><dt>Confirmation</dt><dd><a href="${a.documentUrl}" rel="noopener noreferrer">Download the confirmation (PDF)<span class="visually-hidden">: ${task.title}</span></a></dd></div>` : ''}
</dl>`;
}

const STATUS_LABELS: Record<TaskItem['status'], string> = {
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

/** After a status change: the task it named and, while the task still has the new status, how to undo it. */
export interface Confirmation {
  taskId: string;
  undo: { from: TaskItem['status']; to: TaskItem['status']; title: string; stoppedFiling?: boolean } | null;
}

export interface Notice {
  kind: 'success' | 'error';
  text: string;
  items?: string[];
  confirmation?: Confirmation;
}

function undoForm(c: Confirmation, csrf: string, returnTo: string): Raw {
  if (!c.undo) return html``;
  return html`<form method="post" action="/hosted/tasks/${c.taskId}/undo" class="inline-form undo">
${csrfInput(csrf)}<input type="hidden" name="return_to" value="${returnTo}"><input type="hidden" name="from" value="${c.undo.from}"><input type="hidden" name="to" value="${c.undo.to}">${c.undo.stoppedFiling ? html`<input type="hidden" name="stopped" value="filing">` : ''}
<button type="submit" class="secondary">Undo<span class="visually-hidden">: ${c.undo.title} back to ${STATUS_LABELS[c.undo.to].toLowerCase()}</span></button></form>`;
}

function notice(n: Notice | null, csrf = '', returnTo = '/hosted/tasks'): Raw {
  if (!n) return html``;
  return html`<div class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}"><p>${n.text}</p>${n.items?.length ? html`<ul>${n.items.map((i) => html`<li>${i}</li>`)}</ul>` : ''}${n.confirmation ? undoForm(n.confirmation, csrf, returnTo) : ''}</div>`;
}

/** An estimated date says so, and which answer makes it exact. */
function estimated(task: TaskItem): Raw {
  const basis = task.dueBasis;
  if (!basis || basis.exact) return html``;
  const question = basis.question;
  const what = !question
    ? html`the open questions`
    : question.taskId
      ? html`“<a href="/hosted/tasks/${question.taskId}">${question.title}</a>”`
      : html`“${question.title}”`;
  return html`<p class="due-basis estimated"><strong>Estimated:</strong> answer ${what} to make it exact.</p>`;
}

/** "Due March 4, 2027 — the last day of the anniversary month of registration, every year …", and whether it is estimated. */
function dueBasis(task: TaskItem): Raw {
  if (!task.dueBasis || !task.dueDate) return html``;
  // The rule's words start with "Due …" (engine/describe.ts): said once.
  const rule = task.dueBasis.rule.replace(/^Due /, '');
  return html`<p class="due-basis">Due ${dayTime(task.dueDate)} — ${rule}</p>${estimated(task)}`;
}

function due(task: TaskItem): Raw {
  if (!task.dueDate) return html`<span class="muted">No due date</span>`;
  // "Due in 3 days: March 4, 2026", "Overdue by 2 days: due March 4, 2026", or "Due March 4, 2026" when far off or finished.
  const hint = task.dueHint ? `${task.dueHint[0]!.toUpperCase()}${task.dueHint.slice(1)}: ${task.overdue ? 'due ' : ''}` : 'Due ';
  return html`<span class="${task.overdue ? 'overdue' : ''}">${hint}${dayTime(task.dueDate)}</span>`;
}

/** The way back to the platform: a link, apart from the task buttons, so it never reads as finishing a task. */
function returnToPlatform(callbackUrl: string | null, platformName: string): Raw {
  if (!callbackUrl) return html``;
  return html`<nav class="leave" aria-label="Leave these pages"><p>Finished for now? Everything you changed is already saved.</p>
<p><a class="return-link" href="${callbackUrl}">Return to ${platformName}</a></p></nav>`;
}

/** The buttons of a task: status changes for requirements, an answer form for questions. */
export function taskActions(task: TaskItem, csrf: string, returnTo: string, error?: string | null): Raw {
  if (task.kind === 'question') {
    const id = `answer-${task.id}`;
    const shown = task.typed ?? task.answer;
    const input =
      task.answerType === 'boolean'
        ? html`<fieldset class="inline" id="${id}"${error ? html` aria-describedby="${id}-error"` : ''}><legend>${task.title}</legend>
<label><input type="radio" name="answer" value="true"${shown === 'true' ? html` checked` : ''}> Yes</label>
<label><input type="radio" name="answer" value="false"${shown === 'false' ? html` checked` : ''}> No</label></fieldset>`
        : html`<label for="${id}">Your answer<span class="visually-hidden">: ${task.title}</span></label><input id="${id}" name="answer" type="${task.answerType === 'date' ? 'date' : 'number'}" ${task.answerType === 'number' ? html`min="0" step="1" inputmode="numeric"` : ''} value="${shown ?? ''}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>`;
    return html`<form method="post" action="/hosted/tasks/${task.id}/answer" class="task-form">
${csrfInput(csrf)}<input type="hidden" name="return_to" value="${returnTo}">
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
${input}
<button type="submit">${task.answer === null ? 'Save answer' : 'Change answer'}<span class="visually-hidden">: ${task.title}</span></button>
</form>`;
  }
  // A recurring filing has one task per due date (four Forms 941 a year): its controls name the date too (WCAG 2.4.6).
  const name = `${task.title}${task.dueDate ? `, due ${formatDay(task.dueDate)}` : ''}`;
  const button = (
    status: string,
    label: string,
    secondary = false,
    describedBy = '',
  ) => html`<form method="post" action="/hosted/tasks/${task.id}/status" class="inline-form">
${csrfInput(csrf)}<input type="hidden" name="return_to" value="${returnTo}"><input type="hidden" name="status" value="${status}">
<button type="submit"${secondary ? html` class="secondary"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}>${label}<span class="visually-hidden">: ${name}</span></button></form>`;
  // Marking done cancels a filing under way (tasks service): say so before the click, since undo does not resume it.
  const filing = filingUnderWay(task);
  const buttons =
    task.status === 'done' || task.status === 'dismissed'
      ? [button('todo', 'Back to to-do', true)]
      : [
          button('done', filing ? 'Mark as done and stop the filing' : 'Mark as done', false, filing ? `filing-${task.id}` : ''),
          ...(task.status === 'todo' ? [button('in-progress', 'Start', true)] : [button('todo', 'Back to to-do', true)]),
        ];
  return html`<div class="task-actions">${
    filing && task.status !== 'done' && task.status !== 'dismissed'
      ? html`<p class="hint" id="filing-${task.id}">Statehouse is filing this task. Marking it as done stops that filing, and undo does not resume it.</p>`
      : ''
  }${buttons}</div>`;
}

export type TaskGrouping = 'none' | 'state' | 'category';
export const GROUPINGS: readonly [TaskGrouping, string][] = [
  ['none', 'No grouping (most important first)'],
  ['state', 'State'],
  ['category', 'Category'],
];

export interface TaskListPage {
  platformName: string;
  brand?: PageBrand | null;
  businessName: string;
  tasks: TaskItem[];
  csrf: string;
  regions: { code: string; name: string }[];
  region: string | null;
  regionFixed: boolean;
  status: string;
  statusOptions: [string, string][];
  /** Counts over every task the session may see, whatever the filters. */
  summary: TaskSummary;
  group: TaskGrouping;
  callbackUrl: string | null;
  notice: Notice | null;
  returnTo: string;
  /** The calendar subscription, when this list may offer it. */
  calendar: CalendarOffer | null;
  /** A refused answer, said next to its question's field. */
  answerError?: { taskId: string; text: string } | null;
}

export interface TaskSummary {
  open: number;
  overdue: number;
  done: number;
  /** Each count links to the list filtered on it (null when the session fixes the status). */
  links: { open: string; overdue: string; done: string } | null;
}

function summaryOf(page: TaskListPage): Raw {
  const { open, overdue, done, links } = page.summary;
  const count = (n: number, label: string, href: string | undefined, extra = '') => {
    const inner = html`<span class="n">${n}</span> <span class="label">${label}</span>`;
    return html`<li class="${extra}">${href ? html`<a href="${href}">${inner}</a>` : inner}</li>`;
  };
  return html`<section class="task-summary" aria-labelledby="summary-heading"><h2 id="summary-heading" class="visually-hidden">Summary</h2>
<ul>
${count(open, 'open', links?.open)}
${count(overdue, 'overdue', links?.overdue, overdue > 0 ? 'has-overdue' : '')}
${count(done, 'done', links?.done)}
</ul></section>`;
}

function taskEntry(task: TaskItem, page: TaskListPage, headingLevel: 2 | 3): Raw {
  const title = html`<a href="/hosted/tasks/${task.id}">${task.title}</a>`;
  return html`<li class="task ${task.status}">
${headingLevel === 2 ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}
<p class="meta"><span class="badge">${STATUS_LABELS[task.status]}</span>${automationBadge(task)} <span>${task.regionName}</span> ${due(task)}${task.fee ? html` <span>Fee: ${task.fee}</span>` : ''}</p>
${estimated(task)}
${task.summary ? html`<p>${task.summary}</p>` : ''}
${automationResults(task)}
${task.reasons.length ? html`<p class="why"><span class="muted">Why:</span> ${task.reasons.join('; ')}</p>` : ''}
${task.blockedBy.length ? html`<p class="muted">Do first: ${task.blockedBy.join(', ')}</p>` : ''}
${taskActions(task, page.csrf, page.returnTo, page.answerError?.taskId === task.id ? page.answerError.text : null)}
</li>`;
}

/** Groups in reading order: states by name, categories in the catalog's order; each keeps the importance order. */
function groupsOf(tasks: TaskItem[], group: Exclude<TaskGrouping, 'none'>): { key: string; heading: string; tasks: TaskItem[] }[] {
  const groups = new Map<string, { key: string; heading: string; tasks: TaskItem[] }>();
  for (const task of tasks) {
    const key = group === 'state' ? task.regionCode : task.category;
    const heading = group === 'state' ? task.regionName : categoryLabel(task.category);
    const entry = groups.get(key) ?? { key, heading, tasks: [] };
    entry.tasks.push(task);
    groups.set(key, entry);
  }
  const order = Object.keys(CATEGORY_LABELS);
  return [...groups.values()].sort((a, b) =>
    group === 'state'
      ? a.heading.localeCompare(b.heading)
      : (order.indexOf(a.key) + 1 || order.length + 1) - (order.indexOf(b.key) + 1 || order.length + 1) ||
        a.heading.localeCompare(b.heading),
  );
}

function taskListBody(page: TaskListPage): Raw {
  if (page.group === 'none') return html`<ul class="tasks">${page.tasks.map((t) => taskEntry(t, page, 2))}</ul>`;
  return html`${groupsOf(page.tasks, page.group).map(
    (g) => html`<section class="task-group" aria-labelledby="group-${g.key}">
<h2 id="group-${g.key}">${g.heading} <span class="muted">(${g.tasks.length === 1 ? '1 task' : `${g.tasks.length} tasks`})</span></h2>
<ul class="tasks">${g.tasks.map((t) => taskEntry(t, page, 3))}</ul></section>`,
  )}`;
}

export function renderTaskList(page: TaskListPage): string {
  return layout({
    title: 'Compliance tasks',
    platformName: page.platformName,
    brand: page.brand,
    body: html`<h1>Compliance tasks for ${page.businessName}</h1>
${notice(page.notice, page.csrf, page.returnTo)}
${summaryOf(page)}
<p class="intro">Use <strong>Mark as done</strong> once you have done a task yourself. Changes are saved as you make them.</p>
<form method="get" action="/hosted/tasks" class="filters" role="search" aria-label="Filter tasks">
${
  page.regionFixed
    ? ''
    : html`<div class="field"><label for="filter-region">Location</label><select id="filter-region" name="region"><option value="">All locations</option>
${page.regions.map((r) => html`<option value="${r.code}"${r.code === page.region ? html` selected` : ''}>${r.name}</option>`)}</select></div>`
}
<div class="field"><label for="filter-status">Status</label><select id="filter-status" name="status">
${page.statusOptions.map(([value, label]) => html`<option value="${value}"${value === page.status ? html` selected` : ''}>${label}</option>`)}</select></div>
<div class="field"><label for="filter-group">Group by</label><select id="filter-group" name="group">
${GROUPINGS.map(([value, label]) => html`<option value="${value}"${value === page.group ? html` selected` : ''}>${label}</option>`)}</select></div>
<button type="submit" class="secondary">Show tasks</button>
</form>
<p class="count" aria-live="polite">${page.tasks.length === 1 ? '1 task' : `${page.tasks.length} tasks`}</p>
${taskListBody(page)}
${page.tasks.length === 0 ? html`<p>No tasks match these filters.</p>` : ''}
${page.calendar ? calendarSection(page.calendar, page.csrf) : ''}
${returnToPlatform(page.callbackUrl, page.platformName)}`,
  });
}

export function renderTaskDetail(data: {
  platformName: string;
  brand?: PageBrand | null;
  task: TaskItem;
  csrf: string;
  backToList: boolean;
  callbackUrl: string | null;
  notice: Notice | null;
  answerError?: string | null;
}): string {
  const t = data.task;
  return layout({
    title: t.title,
    platformName: data.platformName,
    brand: data.brand,
    body: html`${data.backToList ? html`<p><a href="/hosted/tasks">← All tasks</a></p>` : ''}
<h1>${t.title}</h1>
${notice(data.notice, data.csrf, `/hosted/tasks/${t.id}`)}
<p class="meta"><span class="badge">${STATUS_LABELS[t.status]}</span>${automationBadge(t)} <span>${t.regionName}</span> ${due(t)}</p>
${dueBasis(t)}
<p>${t.description}</p>
<dl class="summary">
${t.agency ? html`<div><dt>Agency</dt><dd>${t.agency}</dd></div>` : ''}
${t.fee ? html`<div><dt>Fee</dt><dd>${t.fee}</dd></div>` : ''}
<div><dt>Priority</dt><dd>${t.priority}</dd></div>
${t.reasons.length ? html`<div><dt>Why it applies</dt><dd><ul>${t.reasons.map((r) => html`<li>${r}</li>`)}</ul></dd></div>` : ''}
${t.blockedBy.length ? html`<div><dt>Do first</dt><dd>${t.blockedBy.join(', ')}</dd></div>` : ''}
${t.unlocks.length ? html`<div><dt>Unlocks</dt><dd>${t.unlocks.join(', ')}</dd></div>` : ''}
${t.automation ? html`<div><dt>Automation</dt><dd>${t.automation.status ? automationStatusText(t.automation.status) : 'Available: your platform can have Statehouse file this'}</dd></div>` : ''}
</dl>
${automationResults(t)}
${t.steps.length ? html`<h2>How to do it</h2><ol class="steps-list">${t.steps.map((s) => html`<li><strong>${s.title}</strong><p>${s.description}</p>${s.url ? html`<p><a href="${s.url}" rel="noopener noreferrer">${s.url}</a></p>` : ''}</li>`)}</ol>` : ''}
${t.resources.length ? html`<h2>Official resources</h2><ul>${t.resources.map((r) => html`<li><a href="${r.url}" rel="noopener noreferrer">${r.title}</a></li>`)}</ul>` : ''}
${taskActions(t, data.csrf, `/hosted/tasks/${t.id}`, data.answerError)}
${returnToPlatform(data.callbackUrl, data.platformName)}`,
  });
}
