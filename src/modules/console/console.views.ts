/** The console's shell (header, navigation, sign-out), its sign-in, invitation and message pages. */
import { csrfInput, errorSummary, textField } from '../../pages/components.js';
import { documentHead, html, type Raw } from '../../pages/html.js';
import { CONSOLE_NAV } from './console-nav.js';
import { ROLE_LABELS, type ConsoleRole } from './contract.js';

/** Who is signed in, for the header; null on the sign-in and message pages. */
export interface ConsoleShell {
  user: { email: string; role: ConsoleRole; platformName: string } | null;
  csrf?: string;
  /** The page's path, marked as current in the navigation. */
  current?: string;
}

export function consoleLayout(data: ConsoleShell & { title: string; body: Raw }): string {
  const { user } = data;
  return html`${documentHead(`${data.title} · Statehouse console`)}<body>
<header class="top operator-top"><a class="brand" href="/console">${user ? `${user.platformName} · ` : ''}Statehouse console</a>
${
  user && data.csrf
    ? html`<form class="sign-out" method="post" action="/console/sign-out"><span class="muted">${user.email} (${ROLE_LABELS[user.role]})</span> ${csrfInput(data.csrf)}<button type="submit" class="secondary">Sign out</button></form>`
    : ''
}
</header>
${
  user
    ? html`<nav class="top console-nav" aria-label="Console"><ul>
${CONSOLE_NAV.map((p) => html`<li><a href="${p.path}"${p.path === data.current ? html` aria-current="page"` : ''}>${p.label}</a></li>`)}
</ul></nav>`
    : ''
}
<main id="main" class="card wide">
${data.body}
</main>
</body>
</html>
`.value;
}

export const notice = (text: string | null | undefined) =>
  text ? html`<div class="notice success" role="status"><p>${text}</p></div>` : '';

export function renderConsoleSignIn(data: { error?: string | null; notice?: string | null; email?: string }): string {
  return consoleLayout({
    user: null,
    title: `${data.error ? 'Error: ' : ''}Sign in`,
    body: html`<h1>Sign in to the console</h1>
${notice(data.notice)}
${data.error ? html`<div class="error-summary" role="alert" tabindex="-1"><h2>${data.error}</h2></div>` : ''}
<form method="post" action="/console/sign-in" novalidate>
${textField({ name: 'email', label: 'E-mail', type: 'email', value: data.email ?? '', required: true, autocomplete: 'username' })}
${textField({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
<div class="actions"><button type="submit">Sign in</button></div>
</form>`,
  });
}

export function renderConsoleMessage(data: { title: string; body: string; signInLink?: boolean }): string {
  return consoleLayout({
    user: null,
    title: data.title,
    body: html`<h1>${data.title}</h1><p>${data.body}</p>
${data.signInLink ? html`<p class="actions"><a class="button" href="/console/sign-in">Sign in</a></p>` : ''}`,
  });
}

/** An invitation's page: choosing a password (the post) uses the link; opening it spends nothing. */
export function renderAcceptInvite(data: { email: string; role: ConsoleRole; token: string; error?: string | null }): string {
  const errors: Record<string, string> = data.error ? { password: data.error } : {};
  return consoleLayout({
    user: null,
    title: `${data.error ? 'Error: ' : ''}Choose your password`,
    body: html`<h1>Choose your password</h1>
${errorSummary(errors, { password: 'Password' })}
<p>You are invited to the console as <strong>${data.email}</strong> (${ROLE_LABELS[data.role]}). This link works once.</p>
<form method="post" action="/console/invite" novalidate>
<input type="hidden" name="token" value="${data.token}">
${textField({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'new-password', hint: 'At least 12 characters.', error: data.error ?? null })}
${textField({ name: 'confirm', label: 'Password again', type: 'password', required: true, autocomplete: 'new-password' })}
<div class="actions"><button type="submit">Set password and sign in</button></div>
</form>`,
  });
}
