import { csrfInput, errorSummary } from './components.js';
import { dayTime } from './dates.js';
import { html, layout, raw, type Raw, type PageBrand } from './html.js';

/** A login as the accounts page shows it: where and what, never a credential. */
export interface LoginItem {
  id: string;
  name: string;
  regionName: string;
  loginUrl: string;
  isSupported: boolean;
  updatedAt: Date | null;
}

export interface AccountItem {
  id: string;
  name: string;
  regionName: string;
  agency: { name: string; website: string };
  data: { name: string; description: string | null; value: string | null; status: 'todo' | 'in-progress' | 'done' }[];
  logins: LoginItem[];
}

/** The one credentials form that failed validation: which it is, its errors, and what may be shown again. */
export interface FailedForm {
  /** `login-<id>` (update) or `new-<account id>` (add). */
  key: string;
  /** By field name: username, password, totp_seed, security_question, security_answer. */
  errors: Record<string, string>;
  /** Only the non-secret fields are ever shown again (never the password, seed or answer). */
  values: { username?: string; security_question?: string; agency?: string; account_name?: string };
}

export interface AccountsPageData {
  platformName: string;
  brand?: PageBrand | null;
  businessName: string;
  /** "All states" or the state's name. */
  scopeLabel: string;
  accounts: AccountItem[];
  /** Logins that belong to no agency account. */
  otherLogins: LoginItem[];
  csrf: string;
  callbackUrl: string | null;
  /** Name of the login whose credentials were just saved. */
  savedLoginName: string | null;
  failed: FailedForm | null;
  /** The agencies the owner may add an account with, by state (the session's state only, when it has one). */
  agencyChoices: { regionName: string; agencies: { value: string; name: string }[] }[];
  /** Name of the account just added. */
  addedAccountName: string | null;
}

/** The add-account form's key in FailedForm and its fields' ids. */
export const ADD_ACCOUNT_KEY = 'add-account';

const DATA_STATUS_LABELS = { todo: 'To do', 'in-progress': 'In progress', done: 'Done' } as const;

export const CREDENTIAL_LABELS: Record<string, string> = {
  agency: 'Agency',
  account_name: 'Account name',
  username: 'Username',
  password: 'Password',
  totp_seed: 'Authenticator setup key',
  security_question: 'Security question',
  security_answer: 'Answer',
};

// Same rule as components.ts, so the error summary's links land on these fields.
const domId = (name: string) => `f-${name.replace(/[^a-z0-9_-]/gi, '-')}`;

interface CredentialField {
  name: string;
  label: string;
  type: 'text' | 'password';
  autocomplete: string;
  required?: boolean;
  hint?: string;
  value?: string;
  error?: string | undefined;
}

/** A labelled input whose id is unique on the page (many credential forms share field names). */
function credentialField(key: string, f: CredentialField): Raw {
  const id = domId(`${key}-${f.name}`);
  const described = [f.hint ? `${id}-hint` : '', f.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${f.error ? ' has-error' : ''}">
<label for="${id}">${f.label}${f.required ? raw(' <span class="req" aria-hidden="true">*</span>') : ''}</label>
${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
${f.error ? html`<p class="error" id="${id}-error">${f.error}</p>` : ''}
<input id="${id}" name="${f.name}" type="${f.type}" value="${f.value ?? ''}" autocomplete="${f.autocomplete}" spellcheck="false" autocapitalize="off"${f.required ? raw(' required') : ''}${described ? html` aria-describedby="${described}"` : ''}${f.error ? raw(' aria-invalid="true"') : ''}>
</div>`;
}

/** Username, password, an optional authenticator seed and an optional security question. */
function credentialsForm(
  data: AccountsPageData,
  options: { key: string; action: string; hidden: Raw; summary: Raw; button: Raw; updating: boolean },
): Raw {
  const failed = data.failed?.key === options.key ? data.failed : null;
  const errors = failed?.errors ?? {};
  const keep = options.updating ? ' Leave empty to keep the one stored, if any.' : ' Leave empty if the login has none.';
  return html`<details class="credentials"${failed ? raw(' open') : ''}>
<summary>${options.summary}</summary>
<form method="post" action="${options.action}" class="credentials-form">
${csrfInput(data.csrf)}${options.hidden}
${credentialField(options.key, { name: 'username', label: CREDENTIAL_LABELS.username!, type: 'text', autocomplete: 'off', required: true, value: failed?.values.username ?? '', error: errors.username })}
${credentialField(options.key, {
  name: 'password',
  label: CREDENTIAL_LABELS.password!,
  type: 'password',
  autocomplete: 'new-password',
  required: true,
  error: errors.password,
  hint: failed ? 'Enter it again: secrets are not kept when a form has a problem.' : undefined,
})}
${credentialField(options.key, {
  name: 'totp_seed',
  label: `${CREDENTIAL_LABELS.totp_seed} (optional)`,
  type: 'text',
  autocomplete: 'off',
  error: errors.totp_seed,
  hint: `For two-step sign-in: the secret key the agency site showed when you set up an authenticator app, 16 or more letters A–Z and digits 2–7 (spaces are ignored).${keep}`,
})}
<fieldset>
<legend>Security question (optional)</legend>
${credentialField(options.key, { name: 'security_question', label: CREDENTIAL_LABELS.security_question!, type: 'text', autocomplete: 'off', value: failed?.values.security_question ?? '', error: errors.security_question })}
${credentialField(options.key, {
  name: 'security_answer',
  label: CREDENTIAL_LABELS.security_answer!,
  type: 'password',
  autocomplete: 'off',
  error: errors.security_answer,
  hint: options.updating ? 'Replaces the stored answer to the same question; other stored answers are kept.' : undefined,
})}
</fieldset>
<button type="submit">${options.button}</button>
</form>
</details>`;
}

function loginEntry(data: AccountsPageData, login: LoginItem, headingLevel: 3 | 4, showRegion: boolean): Raw {
  const heading = raw(`h${headingLevel}`);
  return html`<li class="login" id="login-${login.id}">
<${heading}>${login.name}</${heading}>
<p class="meta">${showRegion ? html`<span>${login.regionName}</span>` : ''}<span>Sign in at <a href="${login.loginUrl}" rel="noopener noreferrer">${login.loginUrl}</a></span>
<span class="badge">${login.isSupported ? 'Automation supported' : 'Automation not supported'}</span>
${login.updatedAt ? html`<span>Credentials updated ${dayTime(login.updatedAt)}</span>` : ''}</p>
${credentialsForm(data, {
  key: `login-${login.id}`,
  action: `/hosted/accounts/logins/${encodeURIComponent(login.id)}`,
  hidden: html``,
  updating: true,
  summary: html`Update credentials<span class="visually-hidden"> for ${login.name}</span>`,
  button: html`Save credentials<span class="visually-hidden"> for ${login.name}</span>`,
})}
</li>`;
}

function accountSection(data: AccountsPageData, account: AccountItem): Raw {
  return html`<section class="account" aria-labelledby="account-${account.id}">
<h2 id="account-${account.id}">${account.name}</h2>
<p class="meta"><span>${account.regionName}</span>
${account.agency.website ? html`<a href="${account.agency.website}" rel="noopener noreferrer">${account.agency.name}</a>` : html`<span>${account.agency.name}</span>`}</p>
<h3>Account details</h3>
${
  account.data.length
    ? html`<dl class="summary account-data">${account.data.map(
        (d) => html`<div><dt>${d.name}</dt><dd>${d.value ?? html`<span class="muted">Not yet known</span>`}
<span class="badge data-${d.status}"><span class="visually-hidden">Status: </span>${DATA_STATUS_LABELS[d.status]}</span></dd></div>`,
      )}</dl>`
    : html`<p class="muted">No details recorded yet.</p>`
}
<h3>Logins</h3>
${account.logins.length ? html`<ul class="logins">${account.logins.map((l) => loginEntry(data, l, 4, false))}</ul>` : html`<p class="muted">No login yet.</p>`}
${credentialsForm(data, {
  key: `new-${account.id}`,
  action: '/hosted/accounts/logins',
  hidden: html`<input type="hidden" name="agency_account_id" value="${account.id}">`,
  updating: false,
  summary: html`Add a login<span class="visually-hidden"> to ${account.name}</span>`,
  button: html`Add login<span class="visually-hidden"> to ${account.name}</span>`,
})}
</section>`;
}

/** Error summary entries name the login or account the failing form belongs to. */
function summaryOf(data: AccountsPageData): Raw {
  if (!data.failed) return html``;
  const { key, errors } = data.failed;
  const owner = key.startsWith('login-')
    ? [...data.accounts.flatMap((a) => a.logins), ...data.otherLogins].find((l) => `login-${l.id}` === key)?.name
    : data.accounts.find((a) => `new-${a.id}` === key)?.name;
  const keyed: Record<string, string> = {};
  const labels: Record<string, string> = {};
  for (const [name, message] of Object.entries(errors)) {
    keyed[`${key}-${name}`] = message;
    labels[`${key}-${name}`] = `${CREDENTIAL_LABELS[name] ?? name}${owner ? ` (${owner})` : ''}`;
  }
  return errorSummary(keyed, labels);
}

/**
 * An agency account the owner already has (with payroll tax, unemployment insurance, the Secretary of State…):
 * the agency, and a name to recognise it by. Its login is added next, with the account's own form.
 */
function addAccountForm(data: AccountsPageData, open: boolean): Raw {
  const failed = data.failed?.key === ADD_ACCOUNT_KEY ? data.failed : null;
  const errors = failed?.errors ?? {};
  const values = failed?.values;
  const agencyId = domId(`${ADD_ACCOUNT_KEY}-agency`);
  const form = html`<form method="post" action="/hosted/accounts/accounts" class="add-account-form">
${csrfInput(data.csrf)}
<div class="field${errors.agency ? ' has-error' : ''}">
<label for="${agencyId}">${CREDENTIAL_LABELS.agency} <span class="req" aria-hidden="true">*</span></label>
${errors.agency ? html`<p class="error" id="${agencyId}-error">${errors.agency}</p>` : ''}
<select id="${agencyId}" name="agency" required${errors.agency ? html` aria-invalid="true" aria-describedby="${agencyId}-error"` : ''}>
<option value="">Choose the agency…</option>
${data.agencyChoices.map((group) => html`<optgroup label="${group.regionName}">${group.agencies.map((a) => html`<option value="${a.value}"${values?.agency === a.value ? raw(' selected') : ''}>${a.name}</option>`)}</optgroup>`)}
</select></div>
${credentialField(ADD_ACCOUNT_KEY, {
  name: 'account_name',
  label: `${CREDENTIAL_LABELS.account_name} (optional)`,
  type: 'text',
  autocomplete: 'off',
  value: values?.account_name ?? '',
  error: errors.account_name,
  hint: 'How you call it, e.g. "Employer payroll tax account". Empty: the agency’s name.',
})}
<button type="submit">Add the account</button>
</form>`;
  return html`<details class="credentials add-account"${open || failed ? raw(' open') : ''}><summary>Add an agency account you already have</summary>${form}</details>`;
}

/** POST /v2/accounts/manage/session: the entity's agency accounts and logins in the session's scope, with forms to store credentials. */
export function renderAccountsPage(data: AccountsPageData): string {
  const empty = data.accounts.length === 0 && data.otherLogins.length === 0;
  return layout({
    title: data.failed ? 'Error: Agency accounts' : 'Agency accounts',
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>Agency accounts for ${data.businessName}</h1>
${summaryOf(data)}
${data.savedLoginName ? html`<div class="notice success" role="status"><p>Credentials saved for ${data.savedLoginName}.</p></div>` : ''}
${data.addedAccountName ? html`<div class="notice success" role="status"><p>Account added: ${data.addedAccountName}. Add its login below so that ${data.platformName} can use it for you.</p></div>` : ''}
<p class="meta"><span>States: <strong>${data.scopeLabel}</strong></span></p>
<p>Your accounts with state agencies and the logins kept for them. Credentials you enter are stored encrypted and are never shown on this page.</p>
${
  empty
    ? html`<div class="empty"><h2>No agency accounts yet</h2><p>There are no agency accounts or logins for ${data.businessName} in ${data.scopeLabel === 'All states' ? 'any state' : data.scopeLabel} yet.</p>
<p>Your accounts with state agencies (payroll tax, unemployment insurance, the Secretary of State) are where filings and payments go. Once an account and its login are here, ${data.platformName} can file for you and keep its numbers at hand. Accounts that ${data.platformName} or Statehouse register for you appear here by themselves.</p>
${addAccountForm(data, true)}</div>`
    : ''
}
${data.accounts.map((a) => accountSection(data, a))}
${
  data.otherLogins.length
    ? html`<section class="account" aria-labelledby="other-logins"><h2 id="other-logins">Other logins</h2>
<p class="muted">Logins not tied to one of the agency accounts above.</p>
<ul class="logins">${data.otherLogins.map((l) => loginEntry(data, l, 3, true))}</ul></section>`
    : ''
}
${empty ? '' : addAccountForm(data, false)}
${data.callbackUrl ? html`<p class="actions"><a class="button" href="${data.callbackUrl}">Return to ${data.platformName}</a></p>` : ''}`,
  });
}
