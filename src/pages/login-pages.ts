import { html, layout, type PageBrand } from './html.js';

export interface RevealedLogin {
  name: string;
  regionName: string;
  loginUrl: string;
  username: string;
  password: string;
  securityAnswers: { question: string; answer: string }[];
  totp: { code: string; secondsLeft: number } | null;
}

/** One login's credentials, shown to the person the platform sent (every view is audited). */
export function renderLoginReveal(data: {
  platformName: string;
  brand?: PageBrand | null;
  login: RevealedLogin;
  callbackUrl: string | null;
}): string {
  const l = data.login;
  return layout({
    title: l.name,
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>${l.name}</h1>
<p>${l.regionName}. Sign in at <a href="${l.loginUrl}" rel="noopener noreferrer">${l.loginUrl}</a>. Keep these details private; this view was recorded.</p>
<dl class="summary credentials">
<div><dt>Username</dt><dd><code>${l.username}</code></dd></div>
<div><dt>Password</dt><dd><code>${l.password}</code></dd></div>
${l.securityAnswers.map((a) => html`<div><dt>${a.question}</dt><dd><code>${a.answer}</code></dd></div>`)}
${l.totp ? html`<div><dt>One-time code</dt><dd><code>${l.totp.code}</code> <span class="muted">valid for ${l.totp.secondsLeft} more seconds; reload the page for a new one</span></dd></div>` : ''}
</dl>
${data.callbackUrl ? html`<p class="actions"><a class="button" href="${data.callbackUrl}">Return to ${data.platformName}</a></p>` : ''}`,
  });
}
