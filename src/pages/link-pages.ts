import type { HostedPurpose } from '../db/schema.js';
import { html, layout, type PageBrand } from './html.js';

/** What each kind of link opens, as its confirmation page names it. */
const OPENS: Record<HostedPurpose, { title: string; button: string }> = {
  signup: { title: 'Set up compliance for your business', button: 'Continue to sign-up' },
  tasks: { title: 'Your compliance tasks', button: 'Continue to your compliance tasks' },
  task: { title: 'A compliance task', button: 'Continue to your task' },
  automation: { title: 'A task Statehouse can do for you', button: 'Continue to the automation' },
  payroll: { title: 'Connect payroll', button: 'Continue to connect payroll' },
  login: { title: 'Login details', button: 'Show the login details' },
  accounts: { title: 'Your agency accounts', button: 'Continue to your agency accounts' },
  documents: { title: 'Your mail', button: 'Continue to your mail' },
  connect: { title: 'Connect an agency account', button: 'Continue to connect the account' },
  handbook: { title: 'Your employee handbook', button: 'Continue to the handbook builder' },
};

/**
 * The page a single-use link opens: it names the platform and what the link leads to, and only its button
 * (a POST carrying the token) uses the link up, so a mail scanner that fetches the link spends nothing.
 */
export function renderLinkConfirm(data: {
  purpose: HostedPurpose;
  platformName: string;
  businessName: string;
  action: string;
  token: string;
  sessionMinutes: number;
  brand?: PageBrand | null;
}): string {
  const opens = OPENS[data.purpose];
  return layout({
    title: opens.title,
    platformName: data.platformName,
    brand: data.brand ?? null,
    body: html`<h1>${opens.title}</h1>
<p>${data.platformName} sent you this link for ${data.businessName}. It works once: continuing opens a private session in this browser for ${data.sessionMinutes} minutes.</p>
<form method="post" action="${data.action}">
<input type="hidden" name="token" value="${data.token}">
<button type="submit">${opens.button}</button>
</form>`,
  });
}
