import { formatDay } from './dates.js';
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
  /** Whom employees ask about the handbook (the owner's answer to hr-contact), named in the introduction and the acknowledgement form. */
  contact?: string;
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
    const lines = chunk
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
      paragraph = [];
    };
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

/** The handbook's title, the same on the page, in the PDF's metadata and on its footer. */
export const handbookTitle = (doc: HandbookDocument) => `${doc.businessName} employee handbook`;

/** The publication date in words ("March 4, 2026"); publication is an instant, read in UTC so every reader sees one date. */
export const publishedOn = (doc: HandbookDocument) => formatDay(new Date(doc.publishedAt));

/** "California, New York and Texas". */
export function listInWords(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The opening paragraphs of every handbook (HTML and PDF): what it is, how it is organised, whom to ask. */
export function handbookIntroduction(doc: HandbookDocument): string[] {
  const states = doc.sections.filter((s) => s.region !== 'US').map((s) => s.heading);
  return [
    `This handbook explains the policies of ${doc.businessName} and what you can expect from us as your employer. Please read it and keep it for reference.`,
    states.length
      ? `"${doc.sections.find((s) => s.region === 'US')?.heading ?? 'Policies for every employee'}" apply to everyone, wherever you work. The sections for ${listInWords(states)} add what the law of that state provides; they apply to you when you work there.`
      : 'Every policy in this handbook applies to everyone, wherever you work.',
    `Where a law gives you more than a policy here, the law applies. We may update these policies; each new version is published with its date and replaces this one.${doc.contact ? ` Questions about this handbook: ${doc.contact}.` : ''}`,
  ];
}

/** The sentence employees sign, on the acknowledgement page and at the end of the PDF. */
export const acknowledgementStatement = (doc: HandbookDocument) =>
  `I have received version ${doc.version} of the ${handbookTitle(doc)}, published ${publishedOn(doc)}. I understand that I should read it, follow its policies and ask ${doc.contact ?? 'my manager'} about anything I do not understand.`;

const sectionAnchor = (section: HandbookSection) => `handbook-${section.region.toLowerCase()}`;
export const policyAnchor = (policy: HandbookPolicyText) => `policy-${policy.id}`;

const blocksHtml = (text: string) =>
  textBlocks(text).map((block) =>
    block.kind === 'paragraph' ? html`<p>${block.text}</p>` : html`<ul>${block.items.map((item) => html`<li>${item}</li>`)}</ul>`,
  );

/**
 * The handbook's content, for embedding in a hosted page (builder preview, published page, acknowledgement
 * page) below the page's h1: a title block, the contents with anchors, then one section per region.
 */
export function handbookArticle(doc: HandbookDocument): Raw {
  return html`<article class="handbook" aria-labelledby="handbook-title">
<header class="handbook-cover">
<h2 id="handbook-title">${handbookTitle(doc)}</h2>
<dl class="handbook-facts">
<div><dt>Version</dt><dd>${doc.version}</dd></div>
<div><dt>Published</dt><dd><time datetime="${doc.publishedAt}">${publishedOn(doc)}</time></dd></div>
<div><dt>Covers</dt><dd>${listInWords(doc.regionNames)}</dd></div>
</dl>
${handbookIntroduction(doc).map((p) => html`<p>${p}</p>`)}
</header>
<nav class="handbook-toc" aria-labelledby="handbook-contents">
<h3 id="handbook-contents">Contents</h3>
<ol>
${doc.sections.map(
  (section) => html`<li><a href="#${sectionAnchor(section)}">${section.heading}</a>
<ol>${section.policies.map((policy) => html`<li><a href="#${policyAnchor(policy)}">${policy.title}</a></li>`)}</ol></li>`,
)}
</ol>
</nav>
${doc.sections.map(
  (section) => html`<section class="handbook-section" id="${sectionAnchor(section)}" aria-labelledby="${sectionAnchor(section)}-title">
<h3 id="${sectionAnchor(section)}-title">${section.heading}</h3>
${section.policies.map(
  (policy) => html`<section class="handbook-policy" id="${policyAnchor(policy)}" aria-labelledby="${policyAnchor(policy)}-title">
<h4 id="${policyAnchor(policy)}-title">${policy.title}</h4>
${blocksHtml(policy.text)}
</section>`,
)}
<p class="handbook-top"><a href="#handbook-contents">Back to contents</a></p>
</section>`,
)}
</article>`;
}
