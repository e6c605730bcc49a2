import { html, type Raw } from './html.js';

/** A published handbook as its readers see it: the HTML page, the PDF and the acknowledgement page render this. */
export interface HandbookDocument {
  businessName: string;
  version: number;
  /** ISO timestamp of publication. */
  publishedAt: string;
  /** Names of the states it covers, in order. */
  regionNames: string[];
  sections: HandbookSection[];
}

export interface HandbookSection {
  /** 'US' for the policies every employee has, else the region code. */
  region: string;
  heading: string;
  policies: HandbookPolicyText[];
}

export interface HandbookPolicyText {
  id: string;
  title: string;
  /** The filled policy text (placeholders replaced), in the catalog's body format. */
  text: string;
}

export type TextBlock = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

/** The catalog's body format: a blank line starts a paragraph, consecutive '- ' lines form a list. */
export function textBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  for (const chunk of text.trim().split(/\n\s*\n/)) {
    const lines = chunk.split('\n').map((l) => l.trim()).filter(Boolean);
    let paragraph: string[] = [];
    const flush = () => { if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') }); paragraph = []; };
    for (const line of lines) {
      if (line.startsWith('- ')) {
        flush();
        const last = blocks.at(-1);
        if (last?.kind === 'list') last.items.push(line.slice(2));
        else blocks.push({ kind: 'list', items: [line.slice(2)] });
      } else paragraph.push(line);
    }
    flush();
  }
  return blocks;
}

/** The handbook's content, for embedding in a hosted page (builder preview, acknowledgement page). */
export function handbookArticle(doc: HandbookDocument): Raw {
  return html`<article class="handbook" aria-labelledby="handbook-title">
<h2 id="handbook-title">${doc.businessName} employee handbook</h2>
<p class="hint">Version ${doc.version}, published ${new Date(doc.publishedAt).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })}. Covers ${doc.regionNames.join(', ')}.</p>
${doc.sections.map((section) => html`<section>
<h3>${section.heading}</h3>
${section.policies.map((policy) => html`<h4 id="policy-${policy.id}">${policy.title}</h4>
${textBlocks(policy.text).map((block) => (block.kind === 'paragraph' ? html`<p>${block.text}</p>` : html`<ul>${block.items.map((item) => html`<li>${item}</li>`)}</ul>`))}`)}
</section>`)}
</article>`;
}
