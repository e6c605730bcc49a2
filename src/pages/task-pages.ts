import { automationStatusText, type AutomationProgress } from './automation-progress-pages.js';
import { calendarSection, type CalendarOffer } from './calendar-pages.js';
import { csrfInput } from './components.js';
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
  /** Automatable tasks: the latest automation's status (null before any) and, once complete, its results. */
  automation: TaskAutomationItem | null;
}

export interface TaskAutomationItem {
  status: AutomationProgress['status'] | null;
  results: { name: string; value: string }[];
  /** The confirmation document's signed download link, once complete. */
  documentUrl: string | null;
}

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

const STATUS_LABELS: Record<TaskItem['status'], string> = { todo: 'To do', 'in-progress': 'In progress', done: 'Done', dismissed: 'Dismissed' };

export interface Notice {
  kind: 'success' | 'error';
  text: string;
  items?: string[];
}

function notice(n: Notice | null): Raw {
  if (!n) return html``;
  return html`<div class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}"><p>${n.text}</p>${n.items?.length ? html`<ul>${n.items.map((i) => html`<li>${i}</li>`)}</ul>` : ''}</div>`;
}

function due(task: TaskItem): Raw {
  if (!task.dueDate) return html`<span class="muted">No due date</span>`;
  return html`<span class="${task.overdue ? 'overdue' : ''}">${task.overdue ? 'Overdue: ' : 'Due '}<time datetime="${task.dueDate}">${task.dueDate}</time></span>`;
}

/** The buttons of a task: status changes for requirements, an answer form for questions. */
export function taskActions(task: TaskItem, csrf: string, returnTo: string, error?: string | null): Raw {
  if (task.kind === 'question') {
    const id = `answer-${task.id}`;
    const input = task.answerType === 'boolean'
      ? html`<fieldset class="inline"${error ? html` aria-describedby="${id}-error"` : ''}><legend>${task.title}</legend>
<label><input type="radio" name="answer" value="true"${task.answer === 'true' ? html` checked` : ''}> Yes</label>
<label><input type="radio" name="answer" value="false"${task.answer === 'false' ? html` checked` : ''}> No</label></fieldset>`
      : html`<label for="${id}">Your answer<span class="visually-hidden">: ${task.title}</span></label><input id="${id}" name="answer" type="${task.answerType === 'date' ? 'date' : 'number'}" ${task.answerType === 'number' ? html`min="0" step="1" inputmode="numeric"` : ''} value="${task.answer ?? ''}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>`;
    return html`<form method="post" action="/hosted/tasks/${task.id}/answer" class="task-form">
${csrfInput(csrf)}<input type="hidden" name="return_to" value="${returnTo}">
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
${input}
<button type="submit">${task.answer === null ? 'Save answer' : 'Change answer'}<span class="visually-hidden">: ${task.title}</span></button>
</form>`;
  }
  const button = (status: string, label: string, secondary = false) => html`<form method="post" action="/hosted/tasks/${task.id}/status" class="inline-form">
${csrfInput(csrf)}<input type="hidden" name="return_to" value="${returnTo}"><input type="hidden" name="status" value="${status}">
<button type="submit"${secondary ? html` class="secondary"` : ''}>${label}<span class="visually-hidden">: ${task.title}</span></button></form>`;
  const buttons = task.status === 'done' || task.status === 'dismissed'
    ? [button('todo', 'Back to to-do', true)]
    : [button('done', 'Mark as done'), ...(task.status === 'todo' ? [button('in-progress', 'Start', true)] : [button('todo', 'Back to to-do', true)])];
  return html`<div class="task-actions">${buttons}</div>`;
}

export interface TaskListPage {
  platformName: string; brand?: PageBrand | null;
  businessName: string;
  tasks: TaskItem[];
  csrf: string;
  regions: { code: string; name: string }[];
  region: string | null;
  regionFixed: boolean;
  status: string;
  statusOptions: [string, string][];
  callbackUrl: string | null;
  notice: Notice | null;
  returnTo: string;
  /** The calendar subscription, when this list may offer it. */
  calendar: CalendarOffer | null;
}

export function renderTaskList(page: TaskListPage): string {
  return layout({
    title: 'Compliance tasks',
    platformName: page.platformName, brand: page.brand,
    body: html`<h1>Compliance tasks for ${page.businessName}</h1>
${notice(page.notice)}
<form method="get" action="/hosted/tasks" class="filters" role="search" aria-label="Filter tasks">
${page.regionFixed ? '' : html`<div class="field"><label for="filter-region">Location</label><select id="filter-region" name="region"><option value="">All locations</option>
${page.regions.map((r) => html`<option value="${r.code}"${r.code === page.region ? html` selected` : ''}>${r.name}</option>`)}</select></div>`}
<div class="field"><label for="filter-status">Status</label><select id="filter-status" name="status">
${page.statusOptions.map(([value, label]) => html`<option value="${value}"${value === page.status ? html` selected` : ''}>${label}</option>`)}</select></div>
<button type="submit" class="secondary">Show tasks</button>
</form>
<p class="count" aria-live="polite">${page.tasks.length === 1 ? '1 task' : `${page.tasks.length} tasks`}</p>
<ul class="tasks">
${page.tasks.map((task) => html`<li class="task ${task.status}">
<h2><a href="/hosted/tasks/${task.id}">${task.title}</a></h2>
<p class="meta"><span class="badge">${STATUS_LABELS[task.status]}</span>${automationBadge(task)} <span>${task.regionName}</span> ${due(task)}${task.fee ? html` <span>Fee: ${task.fee}</span>` : ''}</p>
${task.summary ? html`<p>${task.summary}</p>` : ''}
${automationResults(task)}
${task.reasons.length ? html`<p class="why"><span class="muted">Why:</span> ${task.reasons.join('; ')}</p>` : ''}
${task.blockedBy.length ? html`<p class="muted">Do first: ${task.blockedBy.join(', ')}</p>` : ''}
${taskActions(task, page.csrf, page.returnTo)}
</li>`)}
</ul>
${page.tasks.length === 0 ? html`<p>No tasks match these filters.</p>` : ''}
${page.calendar ? calendarSection(page.calendar, page.csrf) : ''}
${page.callbackUrl ? html`<p class="actions"><a class="button" href="${page.callbackUrl}">I'm done</a></p>` : ''}`,
  });
}

export function renderTaskDetail(data: { platformName: string; brand?: PageBrand | null; task: TaskItem; csrf: string; backToList: boolean; callbackUrl: string | null; notice: Notice | null; answerError?: string | null }): string {
  const t = data.task;
  return layout({
    title: t.title,
    platformName: data.platformName, brand: data.brand,
    body: html`${data.backToList ? html`<p><a href="/hosted/tasks">← All tasks</a></p>` : ''}
<h1>${t.title}</h1>
${notice(data.notice)}
<p class="meta"><span class="badge">${STATUS_LABELS[t.status]}</span>${automationBadge(t)} <span>${t.regionName}</span> ${due(t)}</p>
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
${data.callbackUrl ? html`<p class="actions"><a class="button" href="${data.callbackUrl}">I'm done</a></p>` : ''}`,
  });
}
