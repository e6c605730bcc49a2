// The hosted automation page once an automation exists: its real progress (the workflow's steps), who is doing
// it, what happens next, the status log, the results when complete and, when an operator asked the owner
// something, the question and a form to answer it. No client JavaScript: a "Check progress" link reloads.
import type { AutomationField } from '../catalog/catalog.schema.js';
import { csrfInput, errorSummary } from './components.js';
import { automationFieldControl } from './automation-pages.js';
import { dayTime, momentTime } from './dates.js';
import { html, layout, raw, type Raw, type PageBrand } from './html.js';

/** What the page reads of an automation (the automations service's view has these and more). */
export interface AutomationProgress {
  status:
    | 'started'
    | 'waiting_for_start_file_date'
    | 'waiting_on_state'
    | 'waiting_on_signature'
    | 'waiting_on_customer_response'
    | 'complete'
    | 'canceled';
  statusReason: string | null;
  customerMessage: string | null;
  /** A connector's name ('sandbox', …) or 'operator'. */
  performer: string;
  steps: { key: string; label: string; state: 'done' | 'current' | 'pending' | 'failed' }[];
  logs: { status: string; reason: string | null; actor: string; at: string }[];
  outputs: {
    accountData: { name: string; value: string }[];
    dates: Record<string, string>;
    documentId: string | null;
    loginId: string | null;
  } | null;
  lastError: string | null;
}

export interface AutomationProgressPage {
  platformName: string;
  brand?: PageBrand | null;
  title: string;
  agencyName: string;
  taskId: string;
  automation: AutomationProgress;
  /** Labels of the catalog's output dates, by name. */
  dateLabels: Record<string, string>;
  /** The confirmation document's download link (signed, short-lived), once complete. */
  documentUrl: string | null;
  /** Waiting on the owner: the fields they may correct, with the values and errors of a refused answer. */
  answer: { fields: AutomationField[]; values: Record<string, string>; errors: Record<string, string>; csrf: string } | null;
  /** Said above everything else: why a start was refused, or that the answer was sent. */
  notice: { kind: 'success' | 'error'; text: string } | null;
  callbackUrl: string | null;
}

const STATUS_TEXT: Record<AutomationProgress['status'], string> = {
  started: 'In progress',
  waiting_for_start_file_date: 'Waiting for the filing date',
  waiting_on_state: 'Waiting on the agency',
  waiting_on_signature: 'Waiting on a signature',
  waiting_on_customer_response: 'Waiting on your answer',
  complete: 'Complete',
  canceled: 'Canceled',
};

/** The automation status as the hosted pages say it (task list and task page badges too). */
export const automationStatusText = (status: AutomationProgress['status']) => STATUS_TEXT[status];

/** Who does the work, in words: the sandbox (a test connector), another connector, or a person of the operator team. */
export function performerText(performer: string, agencyName: string): string {
  if (performer === 'operator') return 'Our team (a person) files this with the agency.';
  if (performer === 'sandbox')
    return 'The sandbox files this: a test connector that imitates the agency. Nothing is sent to a real agency.';
  return `Statehouse files this with ${agencyName} automatically.`;
}

/** What happens next, in each status. */
function nextText(page: AutomationProgressPage): string {
  const a = page.automation;
  const machine = a.performer !== 'operator';
  switch (a.status) {
    case 'started':
      if (!machine) return 'Our team will file it with the agency and update this page. You do not need to do anything now.';
      if (a.lastError) return 'The last attempt did not go through; it will be tried again shortly. Nothing you entered is lost.';
      return 'The filing is under way. This usually takes less than a minute; check again shortly.';
    case 'waiting_for_start_file_date':
      return 'The agency accepts this filing only from a later date. It will be filed then, without anything more from you.';
    case 'waiting_on_state':
      return `The filing is with ${page.agencyName}. Agencies take from days to weeks; this page shows the result when they answer.`;
    case 'waiting_on_signature':
      return 'The filing needs a signature before the agency accepts it. You will be asked to sign; nothing else is needed now.';
    case 'waiting_on_customer_response':
      return 'The filing needs something from you before it can go on. Answer below; it continues once you send your answer.';
    case 'complete':
      return `Done. The results are below and are also kept with ${page.platformName}.`;
    case 'canceled':
      return `This automation was stopped. Nothing more will happen; ask ${page.platformName} to start it again or complete the task with its manual steps.`;
  }
}

function steps(a: AutomationProgress): Raw {
  const said = { done: 'done', current: 'in progress', pending: 'not started', failed: 'did not go through' } as const;
  return html`<ol class="connect-steps">
${a.steps.map((s) => html`<li class="${s.state === 'pending' ? 'todo' : s.state}"${s.state === 'current' ? raw(' aria-current="step"') : ''}>${s.label} <span class="visually-hidden">(${said[s.state]})</span></li>`)}
</ol>`;
}

const at = (iso: string) => momentTime(iso);

function logList(a: AutomationProgress): Raw {
  return html`<h2>Status log</h2>
<ol class="history">${a.logs.map((l) => html`<li>${at(l.at)}: ${STATUS_TEXT[l.status as AutomationProgress['status']] ?? l.status}${l.reason ? html` (${l.reason})` : ''}</li>`)}</ol>`;
}

function results(page: AutomationProgressPage): Raw {
  const out = page.automation.outputs;
  if (page.automation.status !== 'complete' || !out) return html``;
  const dates = Object.entries(out.dates);
  return html`<h2>Results</h2>
<dl class="summary results">
${out.accountData.map((d) => html`<div><dt>${d.name}</dt><dd>${d.value}</dd></div>`)}
${dates.map(([name, value]) => html`<div><dt>${page.dateLabels[name] ?? name}</dt><dd>${dayTime(value)}</dd></div>`)}
${out.loginId ? html`<div><dt>Agency login</dt><dd>Stored encrypted; ${page.platformName} can show it to you.</dd></div>` : ''}
${page.documentUrl ? html`<div><dt>Confirmation</dt><dd><a href="${page.documentUrl}" rel="noopener noreferrer">Download the confirmation (PDF)</a></dd></div>` : ''}
</dl>`;
}

function answerForm(page: AutomationProgressPage): Raw {
  const a = page.automation;
  const form = page.answer;
  if (a.status !== 'waiting_on_customer_response' || !form) return html``;
  const labels = { ...Object.fromEntries(form.fields.map((f) => [f.name, f.label])), response: 'Your answer' };
  const responseError = form.errors.response;
  return html`<h2>We need more information</h2>
<blockquote class="operator-message"><p>${a.customerMessage ?? 'Please check the details below.'}</p></blockquote>
${errorSummary(form.errors, labels)}
<form method="post" action="/hosted/automation/${page.taskId}/answer" novalidate>
${csrfInput(form.csrf)}
<div class="field${responseError ? ' has-error' : ''}"><label for="f-response">Your answer</label>
${responseError ? html`<p class="error" id="f-response-error">${responseError}</p>` : ''}
<textarea id="f-response" name="response" rows="4"${responseError ? raw(' aria-invalid="true" aria-describedby="f-response-error"') : ''}>${form.values.response ?? ''}</textarea></div>
${form.fields.length ? html`<p class="muted">Correct any detail the question is about; fields left as they are keep what you sent before${form.fields.some((f) => f.type === 'ssn-last4') ? ' (sensitive ones are not shown again: leave them empty to keep them)' : ''}.</p>` : ''}
${form.fields.map((f) => automationFieldControl({ ...f, required: false }, form.values[f.name], form.errors[f.name]))}
<div class="actions"><button type="submit">Send the answer</button></div>
</form>`;
}

/** The automation's page in every status. */
export function renderAutomationProgress(page: AutomationProgressPage): string {
  const a = page.automation;
  const working = a.status !== 'complete' && a.status !== 'canceled' && a.status !== 'waiting_on_customer_response';
  return layout({
    title: `${STATUS_TEXT[a.status]}: ${page.title}`,
    platformName: page.platformName,
    brand: page.brand,
    body: html`<h1>${page.title}</h1>
${page.notice ? html`<div class="notice ${page.notice.kind}" role="${page.notice.kind === 'error' ? 'alert' : 'status'}"><p>${page.notice.text}</p></div>` : ''}
<p class="meta"><span class="badge">${STATUS_TEXT[a.status]}</span> <span>${page.agencyName}</span></p>
<div role="status"><p><strong>What happens next:</strong> ${nextText(page)}</p>
${a.status === 'canceled' && a.statusReason ? html`<p>Reason: ${a.statusReason}</p>` : ''}</div>
<p><strong>Who is doing it:</strong> ${performerText(a.performer, page.agencyName)}</p>
${steps(a)}
${working ? html`<p><a class="button secondary" href="/hosted/automation/${page.taskId}">Check progress</a></p>` : ''}
${answerForm(page)}
${results(page)}
${logList(a)}
${page.callbackUrl ? html`<p class="actions"><a class="button" href="${page.callbackUrl}">Return to ${page.platformName}</a></p>` : ''}`,
  });
}
