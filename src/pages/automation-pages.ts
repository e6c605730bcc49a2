import type { AutomationField } from '../catalog/catalog.schema.js';
import { csrfInput, errorSummary, textField } from './components.js';
import { html, layout, type Raw, type PageBrand } from './html.js';

/** One input of an automation's form (also the owner's answer form), labelled and tied to its error. */
export function automationFieldControl(f: AutomationField, value: string | undefined, error: string | undefined): Raw {
  const hint = f.description;
  if (f.type === 'boolean') {
    const id = `f-${f.name}`;
    return html`<fieldset class="field${error ? ' has-error' : ''}"${error ? html` aria-describedby="${id}-error"` : ''}><legend>${f.label}${f.required ? html` <span class="req" aria-hidden="true">*</span>` : ''}</legend>
${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
<label><input type="radio" name="${f.name}" value="yes"${value === 'yes' ? html` checked` : ''}> Yes</label>
<label><input type="radio" name="${f.name}" value="no"${value === 'no' ? html` checked` : ''}> No</label></fieldset>`;
  }
  const type =
    f.type === 'date' ? 'date' : f.type === 'email' ? 'email' : f.type === 'phone' ? 'tel' : f.type === 'number' ? 'number' : 'text';
  const extraHint =
    f.type === 'ssn-last4'
      ? 'The last four digits only.'
      : f.type === 'ein'
        ? '9 digits, e.g. 12-3456789'
        : f.type === 'address'
          ? 'Street, city, state and postal code'
          : undefined;
  return textField({
    name: f.name,
    label: f.label,
    value,
    error,
    required: f.required,
    type,
    ...((hint ?? extraHint) ? { hint: hint ?? extraHint! } : {}),
  });
}

export function renderAutomationForm(data: {
  platformName: string;
  brand?: PageBrand | null;
  title: string;
  taskId: string;
  fields: AutomationField[];
  values: Record<string, string>;
  errors: Record<string, string>;
  csrf: string;
  /** Why the last submission was not started (the values are kept so nothing typed is lost). */
  refusal?: string | null;
}): string {
  return layout({
    title: `${Object.keys(data.errors).length || data.refusal ? 'Error: ' : ''}Automate: ${data.title}`,
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>${data.title}</h1>
${data.refusal ? html`<div class="notice error" role="alert"><p>${data.refusal}</p></div>` : ''}
<p>Statehouse can file this for you. It needs a few details first; they are stored for this filing only.</p>
${errorSummary(data.errors, Object.fromEntries(data.fields.map((f) => [f.name, f.label])))}
<form method="post" action="/hosted/automation/${data.taskId}" novalidate>
${csrfInput(data.csrf)}
${data.fields.map((f) => automationFieldControl(f, data.values[f.name], data.errors[f.name]))}
<div class="actions"><button type="submit">Start the automation</button></div>
</form>`,
  });
}

/** The automation page of a task that cannot be started (done, dismissed): said in words, with no form to fill in vain. */
export function renderAutomationRefused(data: {
  platformName: string;
  brand?: PageBrand | null;
  title: string;
  reason: string;
  callbackUrl: string | null;
}): string {
  return layout({
    title: `Cannot automate: ${data.title}`,
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>${data.title}</h1>
<div class="notice error" role="alert"><p>${data.reason}</p></div>
${data.callbackUrl ? html`<p class="actions"><a class="button" href="${data.callbackUrl}">Return to ${data.platformName}</a></p>` : ''}`,
  });
}

/** Why an automation was not started, in the owner's words (the API says it with a 409). */
export function refusalText(reason: 'done' | 'dismissed' | 'running'): string {
  switch (reason) {
    case 'done':
      return 'This task is already done, so there is nothing to file and nothing was started. If it must be filed again, move the task back to to-do first.';
    case 'dismissed':
      return 'This task was dismissed, so nothing was started. Move it back to to-do first if it applies after all.';
    case 'running':
      return 'This filing is already under way, so nothing new was started. Its progress is below.';
  }
}
