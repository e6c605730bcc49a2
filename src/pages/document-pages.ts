import { html, layout, type PageBrand } from './html.js';

export interface DocumentItem {
  id: string;
  typeLabel: string;
  /** YYYY-MM-DD */
  received: string;
  sender: string | null;
  regionName: string | null;
  /** Signed, short-lived link to the PDF. */
  downloadUrl: string;
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const longDate = (day: string) => LONG_DATE.format(new Date(`${day}T00:00:00Z`));

/** The entity's mail from state agencies, newest first, each with a download link. */
export function renderDocumentList(data: {
  platformName: string; brand?: PageBrand | null; businessName: string; items: DocumentItem[]; callbackUrl: string | null; linkMinutes: number;
}): string {
  const count = data.items.length;
  const list = count === 0
    ? html`<div class="documents-empty"><p><strong>No documents yet.</strong></p><p>When mail from a state agency arrives for ${data.businessName}, it will be listed here.</p></div>`
    : html`<p class="count">${count} ${count === 1 ? 'document' : 'documents'}, newest first. Download links work for ${data.linkMinutes} minutes; reload the page for fresh ones.</p>
<ul class="documents">
${data.items.map((item) => html`<li class="document">
<h2>${item.typeLabel}${item.sender ? html` from ${item.sender}` : ''}</h2>
<p class="meta"><span>Received <time datetime="${item.received}">${longDate(item.received)}</time></span>${item.regionName ? html`<span>${item.regionName}</span>` : ''}</p>
<p><a class="button" href="${item.downloadUrl}" rel="noopener noreferrer">Download PDF<span class="visually-hidden">: ${item.typeLabel}${item.sender ? ` from ${item.sender}` : ''}, received ${longDate(item.received)}</span></a></p>
</li>`)}
</ul>`;
  return layout({
    title: 'Documents',
    platformName: data.platformName, brand: data.brand,
    body: html`<h1>Documents</h1>
<p>Mail that state agencies sent to ${data.businessName}, scanned as PDF.</p>
${list}
${data.callbackUrl ? html`<p class="actions"><a class="button secondary" href="${data.callbackUrl}">Return to ${data.platformName}</a></p>` : ''}`,
  });
}
