import type { ConnectionStatus } from '../db/schema.js';
import { csrfInput, errorSummary, textField } from './components.js';
import { html, layout, raw, type Raw, type PageBrand } from './html.js';

export interface ConnectPageView {
  platformName: string;
  brand?: PageBrand | null;
  businessName: string;
  agencyName: string;
  regionName: string;
  accountName: string;
  status: ConnectionStatus;
  statusReason: string | null;
  /** The account number learned at the agency, once connected. */
  idNumber: string | null;
  csrf: string;
  action: string;
  /** Only the user name is ever echoed back; secrets are not. */
  values?: { username?: string };
  errors?: Record<string, string>;
}

/** While the connector works the page reloads itself (no JavaScript on hosted pages). */

export const CONNECT_FIELD_LABELS = {
  username: 'Username',
  password: 'Password',
  totp_seed: 'Authenticator setup key (optional)',
} as const;

const STEPS: { label: (agency: string) => string; status: ConnectionStatus }[] = [
  { label: () => 'Credentials received', status: 'pending' },
  { label: (agency) => `Signing in at ${agency}`, status: 'authenticating' },
  { label: () => 'Setting up access to the account', status: 'registering' },
  { label: () => 'Connected', status: 'connected' },
];

/** A password-type field, framed like components.ts fields (label, hint, error tied to the control). */
function secretField(f: {
  name: string;
  label: string;
  hint?: string;
  error?: string | null;
  required?: boolean;
  autocomplete: string;
}): Raw {
  const id = `f-${f.name}`;
  const described = [f.hint ? `${id}-hint` : '', f.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${f.error ? ' has-error' : ''}">
<label for="${id}">${f.label}${f.required ? raw(' <span class="req" aria-hidden="true">*</span>') : ''}</label>
${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
${f.error ? html`<p class="error" id="${id}-error">${f.error}</p>` : ''}
<input id="${id}" name="${f.name}" type="password" value="" autocomplete="${f.autocomplete}"${f.required ? raw(' required') : ''}${described ? raw(` aria-describedby="${described}"`) : ''}${f.error ? raw(' aria-invalid="true"') : ''}>
</div>`;
}

function progress(v: ConnectPageView): Raw {
  const current = STEPS.findIndex((s) => s.status === v.status);
  return html`<ol class="connect-steps">
${STEPS.map((step, i) => {
  const state = i < current || v.status === 'connected' ? 'done' : i === current ? 'current' : 'todo';
  const label = step.label(v.agencyName);
  return html`<li class="${state}"${state === 'current' ? raw(' aria-current="step"') : ''}>${label} <span class="visually-hidden">(${state === 'done' ? 'done' : state === 'current' ? 'in progress' : 'not started'})</span></li>`;
})}
</ol>`;
}

function credentialsForm(v: ConnectPageView): Raw {
  const errors = v.errors ?? {};
  return html`${errorSummary(errors, CONNECT_FIELD_LABELS)}
<form method="post" action="${v.action}" novalidate>
${csrfInput(v.csrf)}
${textField({ name: 'username', label: CONNECT_FIELD_LABELS.username, value: v.values?.username ?? '', error: errors.username, required: true, autocomplete: 'username' })}
${secretField({ name: 'password', label: CONNECT_FIELD_LABELS.password, error: errors.password, required: true, autocomplete: 'current-password' })}
${secretField({
  name: 'totp_seed',
  label: CONNECT_FIELD_LABELS.totp_seed,
  error: errors.totp_seed,
  autocomplete: 'off',
  hint: 'Only if the portal asks for a code from an authenticator app: the setup key shown when you added it (letters A–Z and digits 2–7). Leave empty otherwise.',
})}
<button type="submit">Connect account</button>
</form>
<p class="muted">Your credentials are stored encrypted and used only to connect this account for ${v.platformName}.</p>`;
}

/** The hosted connect page in every status of the connection. */
export function renderConnectPage(v: ConnectPageView): string {
  const about = html`<dl class="summary">
<div><dt>Agency</dt><dd>${v.agencyName}</dd></div>
<div><dt>Account</dt><dd>${v.accountName}</dd></div>
<div><dt>State</dt><dd>${v.regionName}</dd></div>
<div><dt>Business</dt><dd>${v.businessName}</dd></div>
</dl>`;
  let title: string;
  let body: Raw;
  switch (v.status) {
    case 'pending':
      title = `Connect your ${v.agencyName} account`;
      body = html`<h1>${title}</h1>
<p>${v.platformName} asks to connect this account. Enter the username and password you use to sign in to the ${v.agencyName} portal.</p>
${about}
${credentialsForm(v)}`;
      break;
    case 'authenticating':
    case 'registering':
      title = `Connecting your ${v.agencyName} account`;
      body = html`<h1>${title}</h1>
<div role="status"><p>Connecting… This usually takes a few seconds. Check the status again in a moment.</p></div>
${progress(v)}
${about}
<p><a class="button" href="${v.action}">Check status</a></p>`;
      break;
    case 'connected':
      title = 'Connected';
      body = html`<h1>${title}</h1>
<div class="notice success" role="status"><p>Your ${v.agencyName} account is connected. You can close this page.</p></div>
${progress(v)}
${about}
${v.idNumber ? html`<dl class="summary"><div><dt>Account number</dt><dd>${v.idNumber}</dd></div></dl>` : ''}`;
      break;
    case 'disconnected':
      title = `Connect your ${v.agencyName} account`;
      body = html`<h1>${title}</h1>
${v.errors && Object.keys(v.errors).length > 0 ? '' : html`<div class="notice error" role="alert"><h2 class="notice-title">We could not connect the account</h2><p>${v.statusReason ?? 'The agency refused the connection.'}. Check your credentials and try again.</p></div>`}
${about}
${credentialsForm(v)}`;
      break;
    case 'canceled':
      title = 'Connection canceled';
      body = html`<h1>${title}</h1>
<p>${v.platformName} canceled this connection. If you still want to connect the account, ask ${v.platformName} for a new link.</p>
${about}`;
      break;
  }
  // No timed refresh (WCAG 2.2.1, axe `meta-refresh`): the person checks the status when they choose.
  return layout({ title, platformName: v.platformName, brand: v.brand, body });
}
