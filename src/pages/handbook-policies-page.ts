// Step 3 of the hosted handbook builder: every policy that applies, optional ones included or skipped.
import { csrfInput, errorSummary } from './components.js';
import { builderPage, nextStep, type BuilderFrame } from './handbook-builder-frame.js';
import { textBlocks } from './handbook-document.js';
import { html, raw, type Raw } from './html.js';

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
  return builderPage(
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
