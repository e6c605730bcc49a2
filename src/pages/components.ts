import { html, raw, type Raw } from './html.js';

export interface FieldOptions {
  name: string;
  label: string;
  value?: string | null;
  error?: string | null;
  hint?: string;
  required?: boolean;
  type?: 'text' | 'email' | 'date' | 'tel' | 'number' | 'password';
  autocomplete?: string;
}

const fieldId = (name: string) => `f-${name.replace(/[^a-z0-9_-]/gi, '-')}`;

/** Label, hint and error of a field, tied to its control for screen readers. */
function fieldFrame(f: FieldOptions, control: (attributes: Raw) => Raw): Raw {
  const id = fieldId(f.name);
  const described = [f.hint ? `${id}-hint` : '', f.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attributes = raw(
    `id="${id}" name="${f.name}"${f.required ? ' required' : ''}${described ? ` aria-describedby="${described}"` : ''}${f.error ? ' aria-invalid="true"' : ''}`,
  );
  return html`<div class="field${f.error ? ' has-error' : ''}">
<label for="${id}">${f.label}${f.required ? raw(' <span class="req" aria-hidden="true">*</span>') : ''}</label>
${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
${f.error ? html`<p class="error" id="${id}-error">${f.error}</p>` : ''}
${control(attributes)}
</div>`;
}

/** A labelled input. */
export function textField(f: FieldOptions): Raw {
  return fieldFrame(
    f,
    (attributes) =>
      html`<input ${attributes} type="${f.type ?? 'text'}" value="${f.value ?? ''}"${f.autocomplete ? raw(` autocomplete="${f.autocomplete}"`) : ''}>`,
  );
}

/** A labelled select with an empty first choice. */
export function selectField(f: FieldOptions & { options: readonly (readonly [string, string])[] }): Raw {
  return fieldFrame(
    f,
    (attributes) => html`<select ${attributes}>
<option value="">Choose…</option>
${f.options.map(([value, label]) => html`<option value="${value}"${value === (f.value ?? '') ? raw(' selected') : ''}>${label}</option>`)}
</select>`,
  );
}

export const csrfInput = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

/** A summary of errors at the top of a form, linking to each field by its label. */
export function errorSummary(errors: Record<string, string>, labels: Record<string, string> = {}): Raw {
  const entries = Object.entries(errors);
  if (entries.length === 0) return html``;
  return html`<div class="error-summary" role="alert" tabindex="-1"><h2>Please fix ${entries.length === 1 ? 'this problem' : `these ${entries.length} problems`}</h2><ul>
${entries.map(([name, message]) => html`<li><a href="#${fieldId(name)}">${labels[name] ? `${labels[name]}: ` : ''}${message}</a></li>`)}
</ul></div>`;
}
