import { calendarSection, type CalendarOffer } from './calendar-pages.js';
import { html, layout, type PageBrand, type Raw } from './html.js';
import { CATEGORY_LABELS, categoryLabel, STATUS_LABELS, type TaskItem } from './task-item.js';
import { automationBadge, automationResults, due, estimated, notice, returnToPlatform, taskActions, type Notice } from './task-parts.js';

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
