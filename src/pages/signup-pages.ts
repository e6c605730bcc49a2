import type { AddressValue, LegalEntityRow } from '../db/schema.js';
import { formatDay } from './dates.js';
import { formatPhone, PHONE_HINT } from '../lib/phone-number.js';
import { FORM_STEPS, OPTIONS, STEPS, type FormStep, type Step } from './signup-options.js';
import { csrfInput, errorSummary, selectField, textField } from './components.js';
import { html, layout, type Raw, type PageBrand } from './html.js';

const STEP_TITLES: Record<Step, string> = {
  business: 'About your business',
  contact: 'How to reach you',
  accounting: 'Accounting (optional)',
  review: 'Review and confirm',
};

function progress(step: Step): Raw {
  const index = STEPS.indexOf(step);
  return html`<p class="progress">Step ${index + 1} of ${STEPS.length}</p>
<ol class="steps">${STEPS.map((s, i) => html`<li${i === index ? html` aria-current="step"` : ''} class="${i < index ? 'done' : i === index ? 'current' : ''}">${STEP_TITLES[s]}</li>`)}</ol>`;
}

export interface StepPage {
  step: FormStep;
  values: Record<string, string>;
  errors: Record<string, string>;
  csrf: string;
  platformName: string;
  brand?: PageBrand | null;
  back: string;
  /** The platform filled this step in and the owner has not saved it yet. */
  prefilled: boolean;
}

function fields(page: StepPage): Raw {
  const { values: v, errors: e } = page;
  const f = (name: string) => ({ name, value: v[name], error: e[name] });
  switch (page.step) {
    case 'business':
      return html`${textField({ ...f('business_name'), label: 'Legal business name', required: true, autocomplete: 'organization' })}
${selectField({ ...f('entity_type'), label: 'Entity type', required: true, options: OPTIONS.entity_type })}
${selectField({ ...f('tax_classification'), label: 'Tax classification', required: true, hint: 'How the IRS taxes the business; an LLC may have elected to be taxed as a corporation.', options: OPTIONS.tax_classification })}
${selectField({ ...f('llc_managed_type'), label: 'LLC management (LLCs only)', options: OPTIONS.llc_managed_type })}
${selectField({ ...f('incorporation_location'), label: 'State of incorporation or formation', required: true, options: OPTIONS.incorporation_location })}
${textField({ ...f('incorporation_date'), label: 'Date of incorporation or formation', required: true, type: 'date' })}
${textField({ ...f('ein'), label: 'Federal EIN', hint: '9 digits, for example 12-3456789' })}`;
    case 'contact':
      return html`${textField({ ...f('user_email'), label: 'Your email', required: true, type: 'email', autocomplete: 'email' })}
${textField({ ...f('business_email'), label: 'Business email', type: 'email' })}
${textField({ ...f('business_phone'), label: 'Business phone', type: 'tel', autocomplete: 'tel', hint: PHONE_HINT })}
<fieldset><legend>Business address</legend>
${e.business_address ? html`<p class="error" id="address-error">Enter the street, city, state, postal code and country</p>` : ''}
${textField({ ...f('business_address.address_line_1'), label: 'Street address', autocomplete: 'address-line1' })}
${textField({ ...f('business_address.address_line_2'), label: 'Suite or unit', autocomplete: 'address-line2' })}
${textField({ ...f('business_address.city'), label: 'City', autocomplete: 'address-level2' })}
${selectField({ ...f('business_address.state'), label: 'State', autocomplete: 'address-level1', options: OPTIONS.state })}
${textField({ ...f('business_address.postal_code'), label: 'ZIP code', autocomplete: 'postal-code', hint: '5 digits, or ZIP+4 like 78701-1234' })}
${selectField({ ...f('business_address.country'), label: 'Country', autocomplete: 'country', options: OPTIONS.country })}
</fieldset>`;
    case 'accounting':
      return html`${textField({ ...f('naics_code'), label: 'NAICS code', hint: '2 to 6 digits describing your industry' })}
${selectField({ ...f('accounting_method'), label: 'Accounting method', options: OPTIONS.accounting_method })}
${selectField({ ...f('accounting_period'), label: 'Accounting period', options: OPTIONS.accounting_period })}
${selectField({ ...f('accounting_year_end'), label: 'Fiscal year ends in', options: OPTIONS.accounting_year_end })}
${textField({ ...f('futa_liability_year'), label: 'First year of federal unemployment (FUTA) liability', hint: 'A four-digit year' })}`;
  }
}

// The error summary's labels: the same words as the fields' own labels.
const FIELD_LABELS: Record<string, string> = {
  business_name: 'Legal business name',
  entity_type: 'Entity type',
  tax_classification: 'Tax classification',
  llc_managed_type: 'LLC management (LLCs only)',
  incorporation_location: 'State of incorporation or formation',
  incorporation_date: 'Date of incorporation or formation',
  ein: 'Federal EIN',
  user_email: 'Your email',
  business_email: 'Business email',
  business_phone: 'Business phone',
  business_address: 'Business address',
  'business_address.address_line_1': 'Street address',
  'business_address.address_line_2': 'Suite or unit',
  'business_address.city': 'City',
  'business_address.state': 'State',
  'business_address.postal_code': 'ZIP code',
  'business_address.country': 'Country',
  naics_code: 'NAICS code',
  accounting_method: 'Accounting method',
  accounting_period: 'Accounting period',
  accounting_year_end: 'Fiscal year ends in',
  futa_liability_year: 'First year of federal unemployment (FUTA) liability',
};

const prefilledNotice = (platformName: string, what: string) =>
  html`<div class="notice info" role="note"><p>${platformName} filled in ${what}. Check ${what === 'this step' ? 'it' : 'them'} and correct anything that is wrong.</p></div>`;

export function renderSignupStep(page: StepPage): string {
  const hasErrors = Object.keys(page.errors).length > 0;
  return layout({
    // Screen readers announce the title on load: say at once that something needs fixing.
    title: `${hasErrors ? 'Error: ' : ''}${STEP_TITLES[page.step]}`,
    platformName: page.platformName,
    brand: page.brand,
    body: html`${progress(page.step)}
<h1>${STEP_TITLES[page.step]}</h1>
${errorSummary(page.errors, FIELD_LABELS)}
${page.prefilled && !hasErrors ? prefilledNotice(page.platformName, 'some of these details') : ''}
<form method="post" action="/hosted/signup/${page.step}" novalidate>
${csrfInput(page.csrf)}
${fields(page)}
<div class="actions">
<a class="secondary" href="${page.back}">Back</a>
<button type="submit">Save and continue</button>
</div>
</form>`,
  });
}

const STEP_DESCRIPTIONS: Record<FormStep, string> = {
  business: 'Its legal name, entity type and tax classification, the state and date it was formed, and its federal EIN if it has one',
  contact: "Your email, and the business's email, phone and address",
  accounting: 'Industry (NAICS code), accounting method and fiscal year, if you know them; you can skip this step',
};

// Labels inside a sentence: "legal business name", but "NAICS code" and "LLC management" keep their capitals.
const inSentence = (text: string) => (/^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text);
const fieldList = (names: string[]) => names.map((n) => inSentence(FIELD_LABELS[n] ?? n)).join(', ');

/** The introduction: who asks and why, the steps, how long, what to have at hand, what the platform filled in, what happens after. */
export function renderSignupWelcome(data: {
  entity: LegalEntityRow;
  prefilled: Partial<Record<FormStep, string[]>>;
  csrf: string;
  platformName: string;
  brand?: PageBrand | null;
}): string {
  const { entity, platformName } = data;
  const prefilled = FORM_STEPS.filter((step) => data.prefilled[step]);
  return layout({
    title: `Set up ${entity.business_name}`,
    platformName,
    brand: data.brand,
    body: html`<h1>Set up ${entity.business_name} with ${platformName}</h1>
<p>${platformName} uses Statehouse to work out which registrations, filings and renewals ${entity.business_name} needs in each state where it operates, and when each is due. First, tell us about the business.</p>
<h2>What you will do</h2>
<ol class="steps-list">
${FORM_STEPS.map((step) => html`<li><strong>${STEP_TITLES[step]}</strong><p>${STEP_DESCRIPTIONS[step]}.</p></li>`)}
<li><strong>${STEP_TITLES.review}</strong><p>Check everything in one place, then confirm.</p></li>
</ol>
<p>It takes about 5 minutes. Have at hand the business's formation documents (for the state and date) and its EIN, from the IRS letter that assigned it (CP 575).</p>
<p>Each step is saved when you continue: you can stop at any time and ${platformName} can send you a new link to pick up where you left off.</p>
${
  prefilled.length > 0
    ? html`<h2>Already filled in by ${platformName}</h2>
<ul>${prefilled.map((step) => html`<li>${STEP_TITLES[step]}: ${fieldList(data.prefilled[step]!)}</li>`)}</ul>
<p>You will see these details before you confirm, and can change any of them.</p>`
    : ''
}
<h2>After you confirm</h2>
<p>${entity.business_name} is set up, and ${platformName} shows you the compliance tasks that apply, each with its due date.</p>
<form method="post" action="/hosted/signup/welcome">
${csrfInput(data.csrf)}
<div class="actions"><button type="submit">Start</button></div>
</form>`,
  });
}

const label = <T extends string>(options: readonly (readonly [T, string])[], value: string | number | null) =>
  value === null ? null : (options.find(([v]) => v === String(value))?.[1] ?? String(value));

/** An address as one is written on an envelope, a line each. */
function addressLines(a: AddressValue): Raw {
  const country = a.country === 'US' || a.country === 'USA' ? 'United States' : a.country;
  const lines = [a.address_line_1, a.address_line_2, `${a.city}, ${a.state} ${a.postal_code}`, country].filter((line): line is string =>
    Boolean(line),
  );
  return html`${lines.map((line, i) => html`${i > 0 ? html`<br>` : ''}${line}`)}`;
}

type ReviewRow = [label: string, value: string | Raw | null];

function reviewRows(e: LegalEntityRow): Record<FormStep, ReviewRow[]> {
  const isLlc = e.entity_type === 'llc' || e.entity_type === 'pllc';
  return {
    business: [
      ['Legal business name', e.business_name],
      ['Entity type', label(OPTIONS.entity_type, e.entity_type)],
      ['Tax classification', label(OPTIONS.tax_classification, e.tax_classification)],
      ...(isLlc || e.llc_managed_type ? [['LLC management', label(OPTIONS.llc_managed_type, e.llc_managed_type)] as ReviewRow] : []),
      ['State of incorporation or formation', label(OPTIONS.incorporation_location, e.incorporation_region)],
      ['Date of incorporation or formation', e.incorporation_date && formatDay(e.incorporation_date)],
      ['Federal EIN', e.ein],
    ],
    contact: [
      ['Your email', e.user_email],
      ['Business email', e.business_email],
      ['Business phone', e.business_phone && formatPhone(e.business_phone)],
      ['Business address', e.business_address && addressLines(e.business_address)],
    ],
    accounting: [
      ['NAICS code', e.naics_code],
      ['Accounting method', label(OPTIONS.accounting_method, e.accounting_method)],
      ['Accounting period', label(OPTIONS.accounting_period, e.accounting_period)],
      ['Fiscal year ends in', label(OPTIONS.accounting_year_end, e.accounting_year_end)],
      ['First year of FUTA liability', e.futa_liability_year],
    ],
  };
}

/** Every detail entered, in words, a section per step with a link to change it; sections the platform filled in say so. */
export function renderSignupReview(data: {
  entity: LegalEntityRow;
  prefilled: Partial<Record<FormStep, string[]>>;
  csrf: string;
  platformName: string;
  brand?: PageBrand | null;
}): string {
  const e = data.entity;
  const rows = reviewRows(e);
  return layout({
    title: STEP_TITLES.review,
    platformName: data.platformName,
    brand: data.brand,
    body: html`${progress('review')}
<h1>${STEP_TITLES.review}</h1>
<p>${data.platformName} uses Statehouse to keep ${e.business_name} compliant in every state where it operates. Check your details, then confirm.</p>
${FORM_STEPS.map(
  (step) => html`<section class="review-section" aria-labelledby="review-${step}">
<div class="review-heading"><h2 id="review-${step}">${STEP_TITLES[step]}</h2><a href="/hosted/signup/${step}">Change<span class="visually-hidden"> ${STEP_TITLES[step].toLowerCase()}</span></a></div>
${data.prefilled[step] ? html`<p class="muted">Filled in by ${data.platformName}: check these details.</p>` : ''}
<dl class="summary">
${rows[step].map(([label, value]) => html`<div><dt>${label}</dt><dd>${value ?? html`<span class="muted">Not given</span>`}</dd></div>`)}
</dl>
</section>`,
)}
<form method="post" action="/hosted/signup/review">
${csrfInput(data.csrf)}
<div class="actions"><a class="secondary" href="/hosted/signup/accounting">Back</a><button type="submit">Confirm and complete signup</button></div>
</form>`,
  });
}

export function renderSignupDonePage(data: { businessName: string; platformName: string; brand?: PageBrand | null }): string {
  return layout({
    title: 'Signup complete',
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>Signup complete</h1><p>${data.businessName} is set up. You can close this window.</p>`,
  });
}
