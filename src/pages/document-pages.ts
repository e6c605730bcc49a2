import { dayTime, formatDay } from './dates.js';
import { html, layout, type PageBrand } from './html.js';

export interface DocumentItem {
  id: string;
  typeLabel: string;
  /** What the mail is about, when it was recorded; the page falls back on the type. */
  subject: string | null;
  /** YYYY-MM-DD */
  received: string;
  sender: string | null;
  regionName: string | null;
  /** Not yet opened from this page by the owner. */
  isNew: boolean;
  /** Opens the PDF through the page (recording that it was opened), then a signed, short-lived link. */
  openUrl: string;
}

/** The entity's mail from state agencies, newest first: subject, sender, whether it is new, and a link to the PDF. */
export function renderDocumentList(data: {
  platformName: string;
  brand?: PageBrand | null;
  businessName: string;
  items: DocumentItem[];
  callbackUrl: string | null;
}): string {
  const count = data.items.length;
  const fresh = data.items.filter((i) => i.isNew).length;
  const list =
    count === 0
      ? html`<div class="documents-empty"><p><strong>No documents yet.</strong></p><p>When mail from a state agency arrives for ${data.businessName}, it will be listed here.</p></div>`
      : html`<p class="count">${count} ${count === 1 ? 'document' : 'documents'}${fresh ? `, ${fresh} new` : ''}, newest first. A document stays marked <strong>New</strong> until you open it here.</p>
<ul class="documents">
${data.items.map((item) => {
  const subject = item.subject ?? item.typeLabel;
  return html`<li class="document${item.isNew ? ' new' : ''}">
<h2>${subject}${item.isNew ? html` <span class="badge new">New</span>` : ''}</h2>
<dl class="summary">
<div><dt>From</dt><dd>${item.sender ?? html`<span class="muted">Sender not recorded</span>`}</dd></div>
<div><dt>Received</dt><dd>${dayTime(item.received)}</dd></div>
<div><dt>Kind</dt><dd>${item.typeLabel}${item.regionName ? ` · ${item.regionName}` : ''}</dd></div>
</dl>
<p><a class="button" href="${item.openUrl}" rel="noopener noreferrer">Open PDF<span class="visually-hidden">: ${subject}${item.sender ? ` from ${item.sender}` : ''}, received ${formatDay(item.received)}</span></a></p>
</li>`;
})}
</ul>`;
  return layout({
    title: 'Documents',
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>Documents</h1>
<p>Mail that state agencies sent to ${data.businessName}, scanned as PDF.</p>
${list}
${data.callbackUrl ? html`<p class="actions"><a class="button secondary" href="${data.callbackUrl}">Return to ${data.platformName}</a></p>` : ''}`,
  });
}
