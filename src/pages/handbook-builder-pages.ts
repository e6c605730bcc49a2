// The hosted handbook builder (docs/handbook.md): states and counts → questions → policies → employees →
// review and publish → the published handbook; and the employee's acknowledgement page. Pure renderers.
import type { HandbookQuestion } from '../catalog/handbook.schema.js';
import { csrfInput, errorSummary, textField } from './components.js';
import { textBlocks } from './handbook-document.js';
import { html, layout, raw, type PageBrand, type Raw } from './html.js';
import { formatDay } from './dates.js';

export const BUILDER_STEPS = [
  { key: 'states', title: 'Employees by state', path: '/hosted/handbook/states' },
  { key: 'questions', title: "Your policies' details", path: '/hosted/handbook/questions' },
  { key: 'policies', title: 'Policies', path: '/hosted/handbook/policies' },
  { key: 'employees', title: 'Employees', path: '/hosted/handbook/employees' },
  { key: 'publish', title: 'Review and publish', path: '/hosted/handbook/publish' },
] as const;
export type BuilderStep = (typeof BUILDER_STEPS)[number]['key'];

const CATEGORY_LABELS: Record<string, string> = {
  employment: 'Employment',
  conduct: 'Conduct',
  pay: 'Pay',
  time: 'Working time',
  leave: 'Leave',
  benefits: 'Benefits',
  safety: 'Safety',
  privacy: 'Privacy',
  separation: 'Leaving the company',
};

/** What every builder page shows around its content. */
export interface BuilderFrame {
  platformName: string;
  brand?: PageBrand | null;
  businessName: string;
  csrf: string;
  /** Steps already complete (a check mark in the step list). */
  done: ReadonlySet<BuilderStep>;
  notice?: string | null;
}

const readableDate = (value: Date | string) => formatDay(value instanceof Date ? value : new Date(value));

function stepList(current: BuilderStep | null, done: ReadonlySet<BuilderStep>): Raw {
  return html`<nav aria-label="Handbook steps"><ol class="steps">${BUILDER_STEPS.map((s) => html`<li${s.key === current ? raw(' aria-current="step"') : ''} class="${s.key === current ? 'current' : done.has(s.key) ? 'done' : ''}"><a href="${s.path}">${s.title}</a></li>`)}</ol></nav>`;
}

function page(frame: BuilderFrame, title: string, current: BuilderStep | null, body: Raw): string {
  return layout({
    title,
    platformName: frame.platformName,
    brand: frame.brand,
    body: html`<p class="muted">${frame.businessName} · Employee handbook</p>
${stepList(current, frame.done)}
<h1>${title}</h1>
${frame.notice ? html`<div class="notice success" role="status"><p>${frame.notice}</p></div>` : ''}
${body}`,
  });
}

const nextStep = (label: string) => html`<p class="actions"><button type="submit">${label}</button></p>`;

/** The builder's start: what it does, where the owner stands, and the way on. */
export function renderHandbookStart(
  frame: BuilderFrame,
  data: {
    blockers: string[];
    adoptable: number;
    next: { path: string; title: string };
    /** Whether any state has employees, and whether a count is still missing (what "no policies yet" means). */
    hasEmployeeStates: boolean;
    countsMissing: boolean;
    latest: { number: number; publishedAt: Date } | null;
    stats: { signed: number; outdated: number; pending: number; missing_emails: number } | null;
    /** Where the owner goes back to the platform (none when the link was opened without a callback). */
    callbackUrl: string | null;
  },
): string {
  return page(
    frame,
    'Your employee handbook',
    null,
    html`
<p>${frame.platformName} uses Statehouse to help you write an employee handbook with the policies federal law and the states where you have employees require, in plain language. You answer a few questions, choose the optional policies you want, list your employees, and publish. Each employee then acknowledges it through a personal link.</p>
<p>${
      data.adoptable > 0
        ? `${data.adoptable} ${data.adoptable === 1 ? 'policy applies' : 'policies apply'} to your business${data.countsMissing ? ' so far; your employee counts may add more' : ''}.`
        : !data.hasEmployeeStates
          ? 'No policies apply yet: first tell us where you have employees.'
          : data.countsMissing
            ? 'Tell us how many employees you have to see which policies apply.'
            : 'No policies apply to your business yet.'
    }</p>
${
  data.latest
    ? html`<div class="notice success"><p>Version ${data.latest.number} was published on ${readableDate(data.latest.publishedAt)}.${data.stats ? ` ${data.stats.signed} acknowledged it, ${data.stats.outdated} acknowledged an earlier version only, ${data.stats.pending + data.stats.missing_emails} have not acknowledged yet.` : ''}</p><p><a href="/hosted/handbook/published">See the published handbook and the employees' links</a></p></div>`
    : ''
}
${data.blockers.length ? html`<h2>Before you can publish</h2><ul>${data.blockers.map((b) => html`<li>${b}</li>`)}</ul>` : html`<p>Everything the policies need is filled in: you can review and publish.</p>`}
<p class="actions"><a class="button" href="${data.next.path}">${data.latest ? 'Continue' : 'Start'}: ${data.next.title}</a>${data.callbackUrl ? html` <a class="button secondary" href="${data.callbackUrl}">Return to ${frame.platformName}</a>` : ''}</p>`,
  );
}

/** Step 1: the states with employees and how many work in each. */
export function renderHandbookStates(
  frame: BuilderFrame,
  data: {
    states: { code: string; name: string; count: string }[];
    errors: Record<string, string>;
  },
): string {
  if (data.states.length === 0) {
    return page(
      frame,
      'Employees by state',
      'states',
      html`<p>Your handbook covers the states where you have employees, and ${frame.platformName} has not told us of any yet. Add the states where your employees work in ${frame.platformName}, then come back through its link.</p>`,
    );
  }
  const labels = Object.fromEntries(data.states.map((s) => [`count_${s.code}`, s.name]));
  return page(
    frame,
    'Employees by state',
    'states',
    html`
<p>Some policies apply only from a number of employees, counted in each state (or in all states for federal policies). Count every current employee, full-time and part-time.</p>
${errorSummary(data.errors, labels)}
<form method="post" action="/hosted/handbook/states" novalidate>${csrfInput(frame.csrf)}
${data.states.map((s) => textField({ name: `count_${s.code}`, label: `Employees in ${s.name}`, value: s.count, error: data.errors[`count_${s.code}`], required: true, type: 'number', hint: 'A whole number, 1 or more.' }))}
${nextStep('Save and continue')}
</form>`,
  );
}

function questionControl(q: HandbookQuestion, value: string, error: string | undefined): Raw {
  const name = `q_${q.id}`;
  const id = `f-${name}`;
  if (q.type === 'boolean' || q.type === 'choice') {
    const options: [string, string][] =
      q.type === 'boolean'
        ? [
            ['true', 'Yes'],
            ['false', 'No'],
          ]
        : (q.choices ?? []).map((c) => [c.value, c.label]);
    const described = [q.help ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
    return html`<fieldset class="field choices${error ? ' has-error' : ''}" id="${id}"${described ? html` aria-describedby="${described}"` : ''}><legend>${q.prompt} <span class="req" aria-hidden="true">*</span></legend>
${q.help ? html`<p class="hint" id="${id}-hint">${q.help}</p>` : ''}
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
${options.map(([v, label]) => html`<label><input type="radio" name="${name}" value="${v}"${v === value ? raw(' checked') : ''}> ${label}</label> `)}</fieldset>`;
  }
  return textField({
    name,
    label: q.prompt,
    value,
    error,
    required: true,
    type: q.type === 'integer' ? 'number' : 'text',
    ...(q.help ? { hint: q.help } : {}),
  });
}

/** Step 2: the questions the applicable policies need. */
export function renderHandbookQuestions(
  frame: BuilderFrame,
  data: {
    questions: HandbookQuestion[];
    values: Record<string, string>;
    errors: Record<string, string>;
  },
): string {
  if (data.questions.length === 0) {
    return page(
      frame,
      "Your policies' details",
      'questions',
      html`<p>The policies that apply to you need no details yet.</p><p class="actions"><a class="button" href="/hosted/handbook/policies">Continue to the policies</a></p>`,
    );
  }
  const labels = Object.fromEntries(data.questions.map((q) => [`q_${q.id}`, q.prompt]));
  return page(
    frame,
    "Your policies' details",
    'questions',
    html`
<p>Your answers fill in the policies' text. You can change them before each publication.</p>
${errorSummary(data.errors, labels)}
<form method="post" action="/hosted/handbook/questions" novalidate>${csrfInput(frame.csrf)}
${data.questions.map((q) => questionControl(q, data.values[`q_${q.id}`] ?? '', data.errors[`q_${q.id}`]))}
${nextStep('Save and continue')}
</form>`,
  );
}

export interface PolicyView {
  id: string;
  title: string;
  summary: string;
  category: string;
  adoption: 'required' | 'optional';
  /** The policy's text with the current answers filled in. */
  text: string;
  sources: { title: string; url: string }[];
}

function policyText(text: string): Raw {
  return html`${textBlocks(text).map((b) => (b.kind === 'paragraph' ? html`<p>${b.text}</p>` : html`<ul>${b.items.map((i) => html`<li>${i}</li>`)}</ul>`))}`;
}

/** Step 3: every policy that applies, by state and category: required ones included, optional ones adopted or skipped. */
export function renderHandbookPolicies(
  frame: BuilderFrame,
  data: {
    sections: { heading: string; policies: PolicyView[] }[];
    choices: Record<string, string>;
    errors: Record<string, string>;
  },
): string {
  const labels = Object.fromEntries(data.sections.flatMap((s) => s.policies.map((p) => [`policy_${p.id}`, p.title])));
  return page(
    frame,
    'Policies',
    'policies',
    html`
<p>Required policies are what the law asks of employers like you: they are always included. Optional ones are good practice: include or skip each. To adjust a policy's details, change your answers in <a href="/hosted/handbook/questions">the previous step</a>.</p>
${errorSummary(data.errors, labels)}
<form method="post" action="/hosted/handbook/policies" novalidate>${csrfInput(frame.csrf)}
${data.sections.map(
  (section) => html`<section><h2>${section.heading}</h2>
${section.policies.map(
  (p) => html`<div class="account">
<h3 id="policy-${p.id}">${p.title} <span class="badge">${p.adoption === 'required' ? 'Required' : 'Optional'}</span> <span class="muted">${CATEGORY_LABELS[p.category] ?? p.category}</span></h3>
<p>${p.summary}</p>
<details><summary>Read the policy as it will appear</summary>${policyText(p.text)}
<p class="hint">Source: ${p.sources.map((s, i) => html`${i ? ', ' : ''}<a href="${s.url}" rel="noreferrer">${s.title}</a>`)}</p></details>
${
  p.adoption === 'optional'
    ? html`<fieldset class="field choices${data.errors[`policy_${p.id}`] ? ' has-error' : ''}" id="f-policy_${p.id}"><legend>Include “${p.title}”?</legend>
${data.errors[`policy_${p.id}`] ? html`<p class="error">${data.errors[`policy_${p.id}`]}</p>` : ''}
<label><input type="radio" name="policy_${p.id}" value="adopt"${data.choices[p.id] !== 'skip' ? raw(' checked') : ''}> Include it</label>
<label><input type="radio" name="policy_${p.id}" value="skip"${data.choices[p.id] === 'skip' ? raw(' checked') : ''}> Skip it</label></fieldset>`
    : ''
}
</div>`,
)}
</section>`,
)}
${data.sections.length === 0 ? html`<p>No policies apply yet: first tell us where you have employees.</p>` : ''}
${nextStep('Save and continue')}
</form>`,
  );
}

export interface EmployeeView {
  id: string;
  name: string;
  email: string | null;
  status: 'signed' | 'outdated' | 'pending' | 'missing_email';
  ackUrl: string | null;
}

const STATUS_WORDS: Record<EmployeeView['status'], string> = {
  signed: 'Acknowledged the latest version',
  outdated: 'Acknowledged an earlier version only',
  pending: 'Not acknowledged yet',
  missing_email: 'Not acknowledged yet, no e-mail address',
};

/** Step 4: the employees who receive the handbook: add, edit, remove. */
export function renderHandbookEmployees(
  frame: BuilderFrame,
  data: {
    employees: EmployeeView[];
    published: boolean;
    add: { values: Record<string, string>; errors: Record<string, string> };
    edit: { id: string; values: Record<string, string>; errors: Record<string, string> } | null;
  },
): string {
  const employeeForm = (
    action: string,
    values: Record<string, string>,
    errors: Record<string, string>,
    button: string,
    prefix = '',
  ) => html`
<form method="post" action="${action}" novalidate>${csrfInput(frame.csrf)}
${textField({ name: `${prefix}name`, label: 'Full name', value: values.name ?? '', error: errors.name, required: true, autocomplete: 'off' })}
${textField({ name: `${prefix}email`, label: 'E-mail address', value: values.email ?? '', error: errors.email, type: 'email', autocomplete: 'off', hint: 'Optional. Nothing is e-mailed for you: once you publish, you send each employee their personal link yourself, from your mail app or by copying the link.' })}
<p class="actions"><button type="submit">${button}</button></p></form>`;
  const allErrors = { ...data.add.errors, ...(data.edit?.errors ?? {}) };
  return page(
    frame,
    'Employees',
    'employees',
    html`
<p>List everyone who should read and acknowledge the handbook.${data.published ? ' Each one gets a personal link to the latest version.' : ' Once you publish, each one gets a personal link.'}</p>
${errorSummary(allErrors, { name: 'Full name', email: 'E-mail address' })}
${
  data.employees.length === 0
    ? html`<p class="empty">No employees listed yet.</p>`
    : html`<ul class="tasks employees">${data.employees.map(
        (e) => html`<li class="task">
<h2>${e.name}</h2>
<p class="meta">${e.email ?? 'No e-mail address'}${data.published ? html` · ${STATUS_WORDS[e.status]}` : ''}</p>
${
  data.edit?.id === e.id
    ? employeeForm(`/hosted/handbook/employees/${e.id}`, data.edit.values, data.edit.errors, 'Save changes')
    : html`<p class="task-actions"><a class="button secondary" href="/hosted/handbook/employees/${e.id}/edit">Edit ${e.name}</a></p>`
}
<form method="post" action="/hosted/handbook/employees/${e.id}/remove" class="inline-form">${csrfInput(frame.csrf)}<button type="submit" class="secondary">Remove ${e.name}</button></form>
</li>`,
      )}</ul>`
}
<h2>Add an employee</h2>
${employeeForm('/hosted/handbook/employees', data.add.values, data.add.errors, 'Add employee')}
<p class="actions"><a class="button" href="/hosted/handbook/publish">Continue to review</a></p>`,
  );
}

/** Step 5: what will be published, and the button. */
export function renderHandbookReview(
  frame: BuilderFrame,
  data: {
    blockers: string[];
    sections: { heading: string; titles: string[] }[];
    employees: number;
    nextVersion: number;
    error?: string | null;
    /** Why there is nothing to publish: the draft is the latest version's content. */
    unchanged?: string | null;
  },
): string {
  return page(
    frame,
    'Review and publish',
    'publish',
    html`
${data.error ? html`<div class="notice error" role="alert"><p>${data.error}</p></div>` : ''}
${
  data.blockers.length
    ? html`<h2>Not ready yet</h2><ul>${data.blockers.map((b) => html`<li>${b}</li>`)}</ul>`
    : data.unchanged
      ? html`<div class="notice" role="status"><p>${data.unchanged}</p><p>Change your answers, policies or states first; employees listed later get their link to the latest version at once.</p></div>`
      : html`<p>Publishing creates version ${data.nextVersion}. Published versions are kept as they are: a later change makes a new version, and employees are asked to acknowledge it.</p>`
}
${data.sections.map((s) => html`<h2>${s.heading}</h2><ul>${s.titles.map((t) => html`<li>${t}</li>`)}</ul>`)}
<p>${data.employees === 1 ? '1 employee' : `${data.employees} employees`} will get a personal link. <a href="/hosted/handbook/employees">Change the list</a></p>
${data.blockers.length || data.unchanged ? '' : html`<form method="post" action="/hosted/handbook/publish">${csrfInput(frame.csrf)}${nextStep(`Publish version ${data.nextVersion}`)}</form>`}`,
  );
}

/** After publishing: the handbook itself, its PDF, and each employee's link. */
export function renderHandbookPublished(
  frame: BuilderFrame,
  data: {
    article: Raw;
    version: number;
    pdfUrl: string;
    employees: EmployeeView[];
    callbackUrl: string | null;
  },
): string {
  const mailto = (e: EmployeeView) =>
    `mailto:${encodeURIComponent(e.email ?? '')}?subject=${encodeURIComponent(`Please read and acknowledge the ${frame.businessName} employee handbook`)}&body=${encodeURIComponent(`Hello ${e.name},\n\nPlease read our employee handbook (version ${data.version}) and acknowledge it here:\n${e.ackUrl ?? ''}\n`)}`;
  return page(
    frame,
    `Version ${data.version} is published`,
    null,
    html`
<p class="actions"><a class="button" href="${data.pdfUrl}">Download the PDF</a> <a class="button secondary" href="/hosted/handbook">Back to the handbook builder</a>${data.callbackUrl ? html` <a class="button secondary" href="${data.callbackUrl}">Return to ${frame.platformName}</a>` : ''}</p>
<p class="hint">The download link works for a limited time; come back here for a fresh one.</p>
<h2>Employees' acknowledgement links</h2>
${
  data.employees.length === 0
    ? html`<p>No employees listed. <a href="/hosted/handbook/employees">Add employees</a> to send them their links.</p>`
    : html`<ul class="tasks">${data.employees.map(
        (e) => html`<li class="task">
<h3>${e.name}</h3><p class="meta">${STATUS_WORDS[e.status]}</p>
<div class="field"><label for="ack-${e.id}">Personal link of ${e.name}</label><input id="ack-${e.id}" type="text" readonly value="${e.ackUrl ?? ''}"></div>
${e.email ? html`<p><a href="${mailto(e)}">E-mail the link to ${e.name}</a></p>` : html`<p class="hint">No e-mail address: copy the link and send it another way.</p>`}
</li>`,
      )}</ul>`
}
${data.article}`,
  );
}

/** The employee's page: the handbook and the acknowledgement form. */
export function renderAcknowledgementPage(data: {
  platformName: string;
  businessName: string;
  employeeName: string;
  article: Raw;
  /** What the employee confirms by acknowledging (acknowledgementStatement of the document). */
  statement: string;
  /** Where the form posts: the link's own path. */
  action: string;
  state: 'open' | 'acknowledged' | 'superseded';
  acknowledgedAt?: Date | null;
  typedName?: string | null;
  value?: string;
  error?: string | null;
}): string {
  const title = `${data.businessName} employee handbook`;
  const form = html`<form method="post" action="${data.action}" novalidate>
${errorSummary(data.error ? { typed_name: data.error } : {}, { typed_name: 'Your full name' })}
<p>${data.statement}</p>
${textField({ name: 'typed_name', label: 'Your full name', value: data.value ?? '', error: data.error, required: true, autocomplete: 'name', hint: 'Typing your name is your signature.' })}
<p class="actions"><button type="submit">I have read and acknowledge the handbook</button></p></form>`;
  const status =
    data.state === 'acknowledged'
      ? html`<div class="notice success" role="status"><p>Thank you, ${data.typedName ?? data.employeeName}: you acknowledged this version${data.acknowledgedAt ? ` on ${readableDate(data.acknowledgedAt)}` : ''}.</p></div>`
      : data.state === 'superseded'
        ? html`<div class="notice error" role="status"><p>A newer version of this handbook exists, so this one can no longer be acknowledged. Ask your employer for your link to the latest version.</p></div>`
        : html`<p>Hello ${data.employeeName}. Please read the handbook below, then acknowledge it at the end of the page.</p>`;
  return layout({
    title,
    platformName: data.businessName,
    body: html`<h1>${data.state === 'acknowledged' ? 'Handbook acknowledged' : data.state === 'superseded' ? 'A newer version exists' : 'Read and acknowledge your handbook'}</h1>${status}${data.article}${data.state === 'open' ? html`<section id="acknowledge" aria-labelledby="acknowledge-title"><h2 id="acknowledge-title">Acknowledge</h2>${form}</section>` : ''}`,
  });
}
