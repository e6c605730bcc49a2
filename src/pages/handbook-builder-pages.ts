// The hosted handbook builder (docs/handbook.md): its start and the first two steps, states and counts →
// questions. Pure renderers; the other steps are handbook-policies-page.ts, handbook-employees-page.ts and
// handbook-publish-pages.ts.
import type { HandbookQuestion } from '../catalog/handbook.schema.js';
import { csrfInput, errorSummary, textField } from './components.js';
import { builderPage, nextStep, readableDate, type BuilderFrame } from './handbook-builder-frame.js';
import { html, raw, type Raw } from './html.js';

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
  return builderPage(
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
    return builderPage(
      frame,
      'Employees by state',
      'states',
      html`<p>Your handbook covers the states where you have employees, and ${frame.platformName} has not told us of any yet. Add the states where your employees work in ${frame.platformName}, then come back through its link.</p>`,
    );
  }
  const labels = Object.fromEntries(data.states.map((s) => [`count_${s.code}`, s.name]));
  return builderPage(
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
    return builderPage(
      frame,
      "Your policies' details",
      'questions',
      html`<p>The policies that apply to you need no details yet.</p><p class="actions"><a class="button" href="/hosted/handbook/policies">Continue to the policies</a></p>`,
    );
  }
  const labels = Object.fromEntries(data.questions.map((q) => [`q_${q.id}`, q.prompt]));
  return builderPage(
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
