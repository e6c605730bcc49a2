/** The back office's page of one automation: what, for whom, why, the input, the log and the operator's actions. */
import { csrfInput, errorSummary, selectField, textField } from './components.js';
import { html, type Raw } from './html.js';
import { operatorLayout } from './operator-pages.js';
import { statusLabel, type QueueRowView } from './operator-queue-page.js';

export interface AutomationDetailView extends QueueRowView {
  legalEntityId: string;
  platformId: string;
  requirementId: string;
  performer: string;
  statusReason: string | null;
  customerMessage: string | null;
  logs: { status: string; reason: string | null; actor: string; at: string }[];
  /** The collected input, sensitive values masked. */
  input: Record<string, unknown>;
  lastError: string | null;
  outputs: { accountData: { name: string; value: string }[]; dates: Record<string, string>; documentId: string | null } | null;
}

/** What the catalog says of the requirement: its links, its input fields and the outputs to record. */
export interface RequirementSheet {
  summary: string;
  agency: { name: string; website: string };
  resources: { title: string; url: string }[];
  fields: { name: string; label: string }[];
  outputs: {
    account: { name: string; data: { name: string; description?: string; required: boolean }[] } | null;
    login: boolean;
    documentTitle: string;
    dates: { name: string; label: string }[];
  };
}

/** The forms of the page; each has its own errors (next to its fields) and values to show again. */
export type DetailForm = 'assign' | 'outcome' | 'send-back' | 'cancel';

export interface AutomationPageData {
  operator: { keyId: string; name: string };
  csrf: string;
  item: AutomationDetailView;
  sheet: RequirementSheet | null;
  /** Why the requirement applies to the entity (planning's explanation), one reason a line. */
  why: string[];
  /** The unmasked input, once, after a Reveal. */
  revealed: Record<string, unknown> | null;
  operators: readonly (readonly [string, string])[];
  /** Whether operator actions are possible (not complete or canceled). */
  open: boolean;
  notice?: string | null;
  /** Why an action could not be done (e.g. the automation moved on meanwhile). */
  problem?: string | null;
  errors?: { form: DetailForm; fields: Record<string, string>; values: Record<string, string> } | null;
}

/** The outcome form's field names: account data by position (catalog names have spaces), dates by name. */
export const outcomeField = {
  accountData: (index: number) => `account_data_${index}`,
  date: (name: string) => `date_${name}`,
  username: 'login_username',
  password: 'login_password',
  document: 'document',
} as const;

const show = (value: unknown) =>
  value === null || value === undefined || value === '' ? '—' : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);

function textArea(f: { name: string; label: string; value?: string; error?: string; hint?: string }): Raw {
  const id = `f-${f.name}`;
  const described = [f.hint ? `${id}-hint` : '', f.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${f.error ? ' has-error' : ''}">
<label for="${id}">${f.label} <span class="req" aria-hidden="true">*</span></label>
${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
${f.error ? html`<p class="error" id="${id}-error">${f.error}</p>` : ''}
<textarea id="${id}" name="${f.name}" rows="4" required${described ? html` aria-describedby="${described}"` : ''}${f.error ? html` aria-invalid="true"` : ''}>${f.value ?? ''}</textarea>
</div>`;
}

function fileField(f: { name: string; label: string; hint: string; error?: string }): Raw {
  const id = `f-${f.name}`;
  return html`<div class="field${f.error ? ' has-error' : ''}">
<label for="${id}">${f.label} <span class="req" aria-hidden="true">*</span></label>
<p class="hint" id="${id}-hint">${f.hint}</p>
${f.error ? html`<p class="error" id="${id}-error">${f.error}</p>` : ''}
<input id="${id}" name="${f.name}" type="file" accept="application/pdf" required aria-describedby="${id}-hint${f.error ? ` ${id}-error` : ''}"${f.error ? html` aria-invalid="true"` : ''}>
</div>`;
}

function summary(item: AutomationDetailView): Raw {
  return html`<dl class="summary">
<div><dt>Business</dt><dd>${item.entityName} <span class="muted">(${item.legalEntityId})</span></dd></div>
<div><dt>Platform</dt><dd>${item.platformName}</dd></div>
<div><dt>State and agency</dt><dd>${item.region}, ${item.agencyId}</dd></div>
<div><dt>Status</dt><dd><span class="badge">${statusLabel(item.status)}</span>${item.statusReason ? html` ${item.statusReason}` : ''}</dd></div>
<div><dt>Due</dt><dd>${item.dueDate ?? 'No due date'}</dd></div>
<div><dt>Done by</dt><dd>${item.performer === 'operator' ? 'Our team (the operator queue)' : `The ${item.performer} connector`}</dd></div>
<div><dt>Assigned to</dt><dd>${item.assignedTo?.name ?? 'Nobody'}</dd></div>
${item.customerMessage ? html`<div><dt>Question to the owner</dt><dd>${item.customerMessage}</dd></div>` : ''}
${item.lastError ? html`<div><dt>Last error</dt><dd>${item.lastError}</dd></div>` : ''}
</dl>`;
}

function inputSection(data: AutomationPageData): Raw {
  const labels = new Map((data.sheet?.fields ?? []).map((f) => [f.name, f.label]));
  const values = data.revealed ?? data.item.input;
  return html`<section aria-labelledby="input-h"><h2 id="input-h">Collected input</h2>
<dl class="summary">${Object.entries(values).map(([name, value]) => html`<div><dt>${labels.get(name) ?? name}</dt><dd>${show(value)}</dd></div>`)}</dl>
${
  data.revealed
    ? html`<p class="muted">Shown once; this view was recorded in the audit trail.</p>`
    : html`<form class="inline-form" method="post" action="/operator/automations/${data.item.id}/reveal">${csrfInput(data.csrf)}<button type="submit" class="secondary">Reveal sensitive fields</button></form>`
}
</section>`;
}

function outcomeForm(data: AutomationPageData, sheet: RequirementSheet): Raw {
  const e = data.errors?.form === 'outcome' ? data.errors : null;
  const err = (name: string) => e?.fields[name] ?? null;
  const val = (name: string) => e?.values[name] ?? '';
  const out = sheet.outputs;
  return html`<section aria-labelledby="outcome-h"><h2 id="outcome-h">Record the outcome</h2>
<form method="post" action="/operator/automations/${data.item.id}/complete" enctype="multipart/form-data" novalidate>
${csrfInput(data.csrf)}
${
  out.account
    ? html`<fieldset><legend>${out.account.name}</legend>
${out.account.data.map((d, i) => textField({ name: outcomeField.accountData(i), label: d.name, value: val(outcomeField.accountData(i)), error: err(outcomeField.accountData(i)), required: d.required, ...(d.description && { hint: d.description }) }))}
</fieldset>`
    : ''
}
${out.dates.map((d) => textField({ name: outcomeField.date(d.name), label: d.label, type: 'date', value: val(outcomeField.date(d.name)), error: err(outcomeField.date(d.name)), hint: 'Today when left empty.' }))}
${
  out.login
    ? html`<fieldset><legend>Login to the agency portal (optional)</legend>
${textField({ name: outcomeField.username, label: 'Username', value: val(outcomeField.username), error: err(outcomeField.username), autocomplete: 'off' })}
${textField({ name: outcomeField.password, label: 'Password', type: 'password', error: err(outcomeField.password), autocomplete: 'new-password' })}
</fieldset>`
    : ''
}
${fileField({ name: outcomeField.document, label: out.documentTitle, hint: "The agency's confirmation, a PDF.", ...(err(outcomeField.document) && { error: err(outcomeField.document)! }) })}
<div class="actions"><button type="submit">Complete the automation</button></div>
</form></section>`;
}

function otherActions(data: AutomationPageData): Raw {
  const err = (form: DetailForm, name: string) => (data.errors?.form === form ? data.errors.fields[name] : undefined);
  const val = (form: DetailForm, name: string) => (data.errors?.form === form ? data.errors.values[name] : undefined);
  const item = data.item;
  return html`<section aria-labelledby="send-back-h"><h2 id="send-back-h">Send it back to the business owner</h2>
<form method="post" action="/operator/automations/${item.id}/request-response" novalidate>${csrfInput(data.csrf)}
${textArea({ name: 'message', label: 'What the owner needs to answer', hint: 'Shown to the owner on their task page.', ...(val('send-back', 'message') && { value: val('send-back', 'message')! }), ...(err('send-back', 'message') && { error: err('send-back', 'message')! }) })}
<div class="actions"><button type="submit" class="secondary">Send back to the owner</button></div></form></section>
<section aria-labelledby="cancel-h"><h2 id="cancel-h">Cancel the automation</h2>
<form method="post" action="/operator/automations/${item.id}/cancel" novalidate>${csrfInput(data.csrf)}
${textArea({ name: 'reason', label: 'Reason', ...(val('cancel', 'reason') && { value: val('cancel', 'reason')! }), ...(err('cancel', 'reason') && { error: err('cancel', 'reason')! }) })}
<div class="actions"><button type="submit" class="secondary">Cancel the automation</button></div></form></section>`;
}

function assignForm(data: AutomationPageData): Raw {
  const mine = data.item.assignedTo?.keyId === data.operator.keyId;
  return html`<section aria-labelledby="assign-h"><h2 id="assign-h">Assignment</h2>
${mine ? '' : html`<form class="inline-form" method="post" action="/operator/automations/${data.item.id}/claim">${csrfInput(data.csrf)}<button type="submit">Claim</button></form>`}
<form method="post" action="/operator/automations/${data.item.id}/claim">${csrfInput(data.csrf)}
${selectField({ name: 'assignee', label: 'Assign to', value: data.item.assignedTo?.keyId ?? '', options: [...data.operators, ['unassigned', 'Nobody']], error: data.errors?.form === 'assign' ? (data.errors.fields.assignee ?? null) : null })}
<button type="submit" class="secondary">Assign</button></form></section>`;
}

export function renderAutomationPage(data: AutomationPageData): string {
  const { item, sheet } = data;
  const errors = data.errors?.fields ?? {};
  return operatorLayout({
    operator: data.operator,
    csrf: data.csrf,
    wide: true,
    title: `${Object.keys(errors).length ? 'Error: ' : ''}${item.taskTitle}`,
    body: html`<p><a href="/operator">Back to the work queue</a></p>
<h1>${item.taskTitle}</h1>
${data.notice ? html`<div class="notice success" role="status"><p>${data.notice}</p></div>` : ''}
${data.problem ? html`<div class="notice error" role="alert"><p>${data.problem}</p></div>` : ''}
${errorSummary(errors)}
${summary(item)}
<section aria-labelledby="why-h"><h2 id="why-h">Why it applies</h2>
${sheet ? html`<p>${sheet.summary}</p>` : ''}
${data.why.length ? html`<ul>${data.why.map((reason) => html`<li>${reason}</li>`)}</ul>` : html`<p class="muted">The planning no longer lists this requirement for the business.</p>`}
</section>
${
  sheet
    ? html`<section aria-labelledby="links-h"><h2 id="links-h">The agency</h2><ul>
<li><a href="${sheet.agency.website}">${sheet.agency.name}</a></li>
${sheet.resources.map((r) => html`<li><a href="${r.url}">${r.title}</a></li>`)}
</ul></section>`
    : ''
}
${inputSection(data)}
${
  item.outputs
    ? html`<section aria-labelledby="outputs-h"><h2 id="outputs-h">Results</h2><dl class="summary">
${item.outputs.accountData.map((d) => html`<div><dt>${d.name}</dt><dd>${d.value}</dd></div>`)}
${Object.entries(item.outputs.dates).map(([name, value]) => html`<div><dt>${name}</dt><dd>${value}</dd></div>`)}
</dl></section>`
    : ''
}
${data.open ? assignForm(data) : ''}
${data.open && sheet ? outcomeForm(data, sheet) : ''}
${data.open ? otherActions(data) : ''}
<section aria-labelledby="log-h"><h2 id="log-h">Status log</h2>
<ol class="history">${item.logs.map((l) => html`<li><time datetime="${l.at}">${l.at.slice(0, 16).replace('T', ' ')} UTC</time>: ${statusLabel(l.status)} (${l.actor})${l.reason ? html`: ${l.reason}` : ''}</li>`)}</ol>
</section>`,
  });
}
