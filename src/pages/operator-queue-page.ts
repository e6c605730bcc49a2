/** The back office's work queue: automations waiting on a person, due first, with filters and paging. */
import { csrfInput, selectField } from './components.js';
import { html, type Raw } from './html.js';
import { operatorLayout } from './operator-pages.js';

/** What the queue shows of one automation (a subset of the automations module's queue item). */
export interface QueueRowView {
  id: string;
  taskTitle: string;
  entityName: string;
  platformName: string;
  region: string;
  agencyId: string;
  status: string;
  dueDate: string | null;
  assignedTo: { keyId: string; name: string } | null;
}

export interface QueueFilters {
  region?: string;
  agency?: string;
  status?: string;
  platform?: string;
  /** 'me', 'unassigned' or 'anyone' (the default). */
  assigned?: string;
}

export interface QueuePageData {
  operator: { keyId: string; name: string };
  csrf: string;
  items: QueueRowView[];
  filters: QueueFilters;
  choices: {
    regions: readonly (readonly [string, string])[];
    agencies: readonly (readonly [string, string])[];
    statuses: readonly (readonly [string, string])[];
    platforms: readonly (readonly [string, string])[];
  };
  nextCursor: string | null;
  /** The query of this page (filters and cursor), to come back to after a claim. */
  here: string;
  notice?: string | null;
  today: string;
}

export const statusLabel = (status: string) => status.replace(/_/g, ' ');

/** The query string of the queue with these filters (and a cursor), empty values left out. */
export function queueQuery(filters: QueueFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function row(item: QueueRowView, data: QueuePageData): Raw {
  const mine = item.assignedTo?.keyId === data.operator.keyId;
  const overdue = item.dueDate !== null && item.dueDate < data.today;
  return html`<li class="task queue-item">
<h2><a href="/operator/automations/${item.id}">${item.taskTitle}</a></h2>
<p class="meta"><span class="badge">${statusLabel(item.status)}</span><span>${item.region}</span><span>${item.agencyId}</span>
<span>${item.entityName}</span><span class="muted">via ${item.platformName}</span></p>
<p class="meta">${item.dueDate ? html`<span class="${overdue ? 'overdue' : ''}">Due ${item.dueDate}${overdue ? ' (overdue)' : ''}</span>` : html`<span>No due date</span>`}
<span>${item.assignedTo ? (mine ? 'Assigned to you' : `Assigned to ${item.assignedTo.name}`) : 'Unassigned'}</span></p>
${
  mine
    ? ''
    : html`<form class="inline-form" method="post" action="/operator/automations/${item.id}/claim">${csrfInput(data.csrf)}<input type="hidden" name="return_to" value="/operator${data.here}">
<button type="submit" class="secondary">Claim<span class="visually-hidden">: ${item.taskTitle} for ${item.entityName}</span></button></form>`
}
</li>`;
}

export function renderQueue(data: QueuePageData): string {
  const f = data.filters;
  return operatorLayout({
    operator: data.operator,
    csrf: data.csrf,
    wide: true,
    title: 'Work queue',
    body: html`<h1>Work queue</h1>
${data.notice ? html`<div class="notice success" role="status"><p>${data.notice}</p></div>` : ''}
<form class="filters" method="get" action="/operator" aria-label="Filter the queue">
${selectField({ name: 'region', label: 'State', value: f.region ?? '', options: data.choices.regions })}
${selectField({ name: 'agency', label: 'Agency', value: f.agency ?? '', options: data.choices.agencies })}
${selectField({ name: 'status', label: 'Status', value: f.status ?? '', options: data.choices.statuses })}
${selectField({ name: 'platform', label: 'Platform', value: f.platform ?? '', options: data.choices.platforms })}
${selectField({
  name: 'assigned',
  label: 'Assigned to',
  value: f.assigned ?? '',
  options: [
    ['me', 'Me'],
    ['unassigned', 'Nobody'],
    ['anyone', 'Anyone'],
  ],
})}
<button type="submit">Filter</button>
</form>
<p class="count" role="status">${data.items.length === 0 ? 'Nothing is waiting for a person with these filters.' : `${data.items.length} automation${data.items.length === 1 ? '' : 's'} on this page, due first.`}</p>
<ul class="tasks">${data.items.map((item) => row(item, data))}</ul>
${data.nextCursor ? html`<p class="actions"><a class="button secondary" href="/operator${queueQuery(f, data.nextCursor)}">Next page</a></p>` : ''}`,
  });
}
