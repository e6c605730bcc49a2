import type { LegalEntityRow } from '../db/schema.js';
import { ENTITY_TYPE_LABELS, OPTIONS, STEPS, TAX_CLASS_LABELS, type Step } from './signup-options.js';
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
  step: Exclude<Step, 'review'>;
  values: Record<string, string>;
  errors: Record<string, string>;
  csrf: string;
  platformName: string; brand?: PageBrand | null;
  back: string | null;
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
${textField({ ...f('business_phone'), label: 'Business phone', type: 'tel', autocomplete: 'tel' })}
<fieldset><legend>Business address</legend>
${e.business_address ? html`<p class="error" id="address-error">Enter the street, city, state, postal code and country</p>` : ''}
${textField({ ...f('business_address.address_line_1'), label: 'Street address', autocomplete: 'address-line1' })}
${textField({ ...f('business_address.address_line_2'), label: 'Suite or unit', autocomplete: 'address-line2' })}
${textField({ ...f('business_address.city'), label: 'City', autocomplete: 'address-level2' })}
${textField({ ...f('business_address.state'), label: 'State', autocomplete: 'address-level1' })}
${textField({ ...f('business_address.postal_code'), label: 'Postal code', autocomplete: 'postal-code' })}
${textField({ ...f('business_address.country'), label: 'Country', autocomplete: 'country' })}
</fieldset>`;
    case 'accounting':
      return html`${textField({ ...f('naics_code'), label: 'NAICS code', hint: '2 to 6 digits describing your industry' })}
${selectField({ ...f('accounting_method'), label: 'Accounting method', options: OPTIONS.accounting_method })}
${selectField({ ...f('accounting_period'), label: 'Accounting period', options: OPTIONS.accounting_period })}
${selectField({ ...f('accounting_year_end'), label: 'Fiscal year ends in', options: OPTIONS.accounting_year_end })}
${textField({ ...f('futa_liability_year'), label: 'First year of federal unemployment (FUTA) liability', hint: 'A four-digit year' })}`;
  }
}

const FIELD_LABELS: Record<string, string> = {
  business_name: 'Legal business name', entity_type: 'Entity type', tax_classification: 'Tax classification',
  llc_managed_type: 'LLC management', incorporation_location: 'State of incorporation', incorporation_date: 'Date of incorporation',
  ein: 'Federal EIN', user_email: 'Your email', business_email: 'Business email', business_phone: 'Business phone',
  business_address: 'Business address', 'business_address.address_line_1': 'Street address', 'business_address.address_line_2': 'Suite or unit',
  'business_address.city': 'City', 'business_address.state': 'State', 'business_address.postal_code': 'Postal code', 'business_address.country': 'Country',
  naics_code: 'NAICS code', accounting_method: 'Accounting method',
  accounting_period: 'Accounting period', accounting_year_end: 'Fiscal year end', futa_liability_year: 'FUTA year',
};

export function renderSignupStep(page: StepPage): string {
  const hasErrors = Object.keys(page.errors).length > 0;
  return layout({
    // Screen readers announce the title on load: say at once that something needs fixing.
    title: `${hasErrors ? 'Error: ' : ''}${STEP_TITLES[page.step]}`,
    platformName: page.platformName, brand: page.brand,
    body: html`${progress(page.step)}
<h1>${STEP_TITLES[page.step]}</h1>
${errorSummary(page.errors, FIELD_LABELS)}
<form method="post" action="/hosted/signup/${page.step}" novalidate>
${csrfInput(page.csrf)}
${fields(page)}
<div class="actions">
${page.back ? html`<a class="secondary" href="${page.back}">Back</a>` : ''}
<button type="submit">Save and continue</button>
</div>
</form>`,
  });
}

export function renderSignupReview(data: { entity: LegalEntityRow; csrf: string; platformName: string; brand?: PageBrand | null }): string {
  const e = data.entity;
  const address = e.business_address ? [e.business_address.address_line_1, e.business_address.address_line_2, e.business_address.city, e.business_address.state, e.business_address.postal_code, e.business_address.country].filter(Boolean).join(', ') : null;
  const rows: [string, string | null, Step][] = [
    ['Business name', e.business_name, 'business'],
    ['Entity type', e.entity_type ? ENTITY_TYPE_LABELS[e.entity_type as keyof typeof ENTITY_TYPE_LABELS] ?? e.entity_type : null, 'business'],
    ['Tax classification', e.tax_classification ? TAX_CLASS_LABELS[e.tax_classification as keyof typeof TAX_CLASS_LABELS] ?? e.tax_classification : null, 'business'],
    ['State of incorporation', e.incorporation_region, 'business'],
    ['Date of incorporation', e.incorporation_date, 'business'],
    ['EIN', e.ein, 'business'],
    ['Your email', e.user_email, 'contact'],
    ['Business phone', e.business_phone, 'contact'],
    ['Business address', address, 'contact'],
    ['NAICS code', e.naics_code, 'accounting'],
  ];
  return layout({
    title: STEP_TITLES.review,
    platformName: data.platformName, brand: data.brand,
    body: html`${progress('review')}
<h1>${STEP_TITLES.review}</h1>
<p>${data.platformName} uses Statehouse to keep ${e.business_name} compliant in every state where it operates. Check your details, then confirm.</p>
<dl class="summary">
${rows.map(([label, value, step]) => html`<div><dt>${label}</dt><dd>${value ?? '—'}</dd><dd class="edit"><a href="/hosted/signup/${step}">Edit<span class="visually-hidden"> ${label}</span></a></dd></div>`)}
</dl>
<form method="post" action="/hosted/signup/review">
${csrfInput(data.csrf)}
<div class="actions"><a class="secondary" href="/hosted/signup/accounting">Back</a><button type="submit">Confirm and complete signup</button></div>
</form>`,
  });
}

export function renderSignupDonePage(data: { businessName: string; platformName: string; brand?: PageBrand | null }): string {
  return layout({
    title: 'Signup complete',
    platformName: data.platformName, brand: data.brand,
    body: html`<h1>Signup complete</h1><p>${data.businessName} is set up. You can close this window.</p>`,
  });
}
