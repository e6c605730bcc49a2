// The employee's page of the handbook: the published version and the acknowledgement form.
import { errorSummary, textField } from './components.js';
import { readableDate } from './handbook-builder-frame.js';
import { html, layout, type Raw } from './html.js';

/** The employee's page: the handbook and the acknowledgement form. */
export function renderAcknowledgementPage(data: {
  platformName: string;
  businessName: string;
  employeeName: string;
  article: Raw;
  /** What the employee confirms by acknowledging (acknowledgementStatement of the document). */
  statement: string;
  /** Where the form posts: the link's own path. */
  action: string;
  state: 'open' | 'acknowledged' | 'superseded';
  acknowledgedAt?: Date | null;
  typedName?: string | null;
  value?: string;
  error?: string | null;
}): string {
  const title = `${data.businessName} employee handbook`;
  const form = html`<form method="post" action="${data.action}" novalidate>
${errorSummary(data.error ? { typed_name: data.error } : {}, { typed_name: 'Your full name' })}
<p>${data.statement}</p>
${textField({ name: 'typed_name', label: 'Your full name', value: data.value ?? '', error: data.error, required: true, autocomplete: 'name', hint: 'Typing your name is your signature.' })}
<p class="actions"><button type="submit">I have read and acknowledge the handbook</button></p></form>`;
  const status =
    data.state === 'acknowledged'
      ? html`<div class="notice success" role="status"><p>Thank you, ${data.typedName ?? data.employeeName}: you acknowledged this version${data.acknowledgedAt ? ` on ${readableDate(data.acknowledgedAt)}` : ''}.</p></div>`
      : data.state === 'superseded'
        ? html`<div class="notice error" role="status"><p>A newer version of this handbook exists, so this one can no longer be acknowledged. Ask your employer for your link to the latest version.</p></div>`
        : html`<p>Hello ${data.employeeName}. Please read the handbook below, then acknowledge it at the end of the page.</p>`;
  return layout({
    title,
    platformName: data.businessName,
    body: html`<h1>${data.state === 'acknowledged' ? 'Handbook acknowledged' : data.state === 'superseded' ? 'A newer version exists' : 'Read and acknowledge your handbook'}</h1>${status}${data.article}${data.state === 'open' ? html`<section id="acknowledge" aria-labelledby="acknowledge-title"><h2 id="acknowledge-title">Acknowledge</h2>${form}</section>` : ''}`,
  });
}
