import { automationStatusText } from './automation-progress-pages.js';
import { html, layout, type PageBrand } from './html.js';
import { STATUS_LABELS, type TaskItem } from './task-item.js';
import { automationBadge, automationResults, due, dueBasis, notice, returnToPlatform, taskActions, type Notice } from './task-parts.js';

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
