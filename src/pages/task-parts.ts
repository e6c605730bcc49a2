// The pieces the task list and a task's page share: notices with undo, due dates, automation results, the task's buttons.
import { automationStatusText } from './automation-progress-pages.js';
import { csrfInput } from './components.js';
import { dayTime, formatDay } from './dates.js';
import { html, type Raw } from './html.js';
import { filingUnderWay, STATUS_LABELS, type TaskItem } from './task-item.js';

export function automationBadge(task: TaskItem): Raw {
  const a = task.automation;
  return a?.status ? html` <span class="badge automation-${a.status}">Automation: ${automationStatusText(a.status)}</span>` : html``;
}

/** A complete automation's results: what the agency assigned and the confirmation. */
export function automationResults(task: TaskItem): Raw {
  const a = task.automation;
  if (a?.status !== 'complete' || (a.results.length === 0 && !a.documentUrl)) return html``;
  return html`<dl class="summary results">
${a.results.map((r) => html`<div><dt>${r.name}</dt><dd>${r.value}</dd></div>`)}
${a.documentUrl ? html`<div><dt>Confirmation</dt><dd><a href="${a.documentUrl}" rel="noopener noreferrer">Download the confirmation (PDF)<span class="visually-hidden">: ${task.title}</span></a></dd></div>` : ''}
</dl>`;
}

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

export function notice(n: Notice | null, csrf = '', returnTo = '/hosted/tasks'): Raw {
  if (!n) return html``;
  return html`<div class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}"><p>${n.text}</p>${n.items?.length ? html`<ul>${n.items.map((i) => html`<li>${i}</li>`)}</ul>` : ''}${n.confirmation ? undoForm(n.confirmation, csrf, returnTo) : ''}</div>`;
}

/** An estimated date says so, and which answer makes it exact. */
export function estimated(task: TaskItem): Raw {
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
export function dueBasis(task: TaskItem): Raw {
  if (!task.dueBasis || !task.dueDate) return html``;
  // The rule's words start with "Due …" (engine/describe.ts): said once.
  const rule = task.dueBasis.rule.replace(/^Due /, '');
  return html`<p class="due-basis">Due ${dayTime(task.dueDate)} — ${rule}</p>${estimated(task)}`;
}

export function due(task: TaskItem): Raw {
  if (!task.dueDate) return html`<span class="muted">No due date</span>`;
  // "Due in 3 days: March 4, 2026", "Overdue by 2 days: due March 4, 2026", or "Due March 4, 2026" when far off or finished.
  const hint = task.dueHint ? `${task.dueHint[0]!.toUpperCase()}${task.dueHint.slice(1)}: ${task.overdue ? 'due ' : ''}` : 'Due ';
  return html`<span class="${task.overdue ? 'overdue' : ''}">${hint}${dayTime(task.dueDate)}</span>`;
}

/** The way back to the platform: a link, apart from the task buttons, so it never reads as finishing a task. */
export function returnToPlatform(callbackUrl: string | null, platformName: string): Raw {
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
