/** The back office's shell (layout, header with sign-out), sign-in and message pages. */
import { csrfInput, errorSummary, textField } from './components.js';
import { documentHead, html, type Raw } from './html.js';

export interface OperatorShell {
  /** The signed-in operator; null on the sign-in and message pages. */
  operator: { name: string } | null;
  csrf?: string;
}

export function operatorLayout(data: OperatorShell & { title: string; body: Raw; wide?: boolean }): string {
  return html`${documentHead(`${data.title} · Statehouse back office`)}<body>
<header class="top operator-top"><a class="brand" href="/operator">Statehouse back office</a>
${
  data.operator && data.csrf
    ? html`<form class="sign-out" method="post" action="/operator/sign-out"><span class="muted">Signed in as ${data.operator.name}</span> ${csrfInput(data.csrf)}<button type="submit" class="secondary">Sign out</button></form>`
    : ''
}
</header>
<main id="main" class="card${data.wide ? ' wide' : ''}">
${data.body}
</main>
</body>
</html>
`.value;
}

export function renderSignIn(data: { error?: string | null; notice?: string | null }): string {
  const errors: Record<string, string> = data.error ? { key: data.error } : {};
  return operatorLayout({
    operator: null,
    title: `${data.error ? 'Error: ' : ''}Sign in`,
    body: html`<h1>Sign in</h1>
${data.notice ? html`<div class="notice success" role="status"><p>${data.notice}</p></div>` : ''}
${errorSummary(errors, { key: 'Operator key' })}
<p>Sign in with your operator key (it starts with <code>sh_op_</code>), or open a link from <code>statehouse operators login</code>.</p>
<form method="post" action="/operator/sign-in" novalidate>
${textField({ name: 'key', label: 'Operator key', error: data.error ?? null, required: true, autocomplete: 'off', type: 'password' })}
<div class="actions"><button type="submit">Sign in</button></div>
</form>`,
  });
}

export function renderOperatorMessage(data: {
  title: string;
  body: string;
  signInLink?: boolean;
  continueTo?: { href: string; label: string };
}): string {
  return operatorLayout({
    operator: null,
    title: data.title,
    body: html`<h1>${data.title}</h1><p>${data.body}</p>
${data.signInLink ? html`<p class="actions"><a class="button" href="/operator/sign-in">Sign in</a></p>` : ''}
${data.continueTo ? html`<p class="actions"><a class="button" href="${data.continueTo.href}">${data.continueTo.label}</a></p>` : ''}`,
  });
}

/** A sign-in link's page: only its button (a POST of the token) uses the link up, so a mail scanner's visit spends nothing. */
export function renderOperatorLinkConfirm(data: { operatorName: string; token: string }): string {
  return operatorLayout({
    operator: null,
    title: 'Sign in with this link',
    body: html`<h1>Sign in with this link</h1>
<p>This one-time link signs this browser in to the back office as <strong>${data.operatorName}</strong>.</p>
<form method="post" action="/operator/link">
<input type="hidden" name="token" value="${data.token}">
<button type="submit">Sign in as ${data.operatorName}</button>
</form>`,
  });
}
