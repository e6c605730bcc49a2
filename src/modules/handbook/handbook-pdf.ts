import PDFDocument from 'pdfkit';
import {
  acknowledgementStatement,
  handbookIntroduction,
  handbookTitle,
  listInWords,
  publishedOn,
  textBlocks,
  type HandbookDocument,
  type TextBlock,
} from '../../pages/handbook-document.js';

/*
 * The published handbook as a PDF: a cover with the introduction, the contents with page numbers and links,
 * one part per section (each starting on a new page), an acknowledgement form to sign on paper, and a footer
 * on every page after the cover. pdfkit's built-in Helvetica only: no font files of our own, and text stays
 * selectable and searchable. The layout runs twice: the first pass finds the page each policy lands on, the
 * second prints those numbers in the contents (whose size does not depend on them, so nothing moves).
 */

const MARGIN = 72;
const INK = '#1b1f24';
const MUTED = '#57606a';
const ACCENT = '#0b5cad';
const BODY_SIZE = 10.5;
/** Width kept for a page number in the contents, so the first pass and the second wrap titles alike. */
const PAGE_NUMBER_WIDTH = 36;
/** A heading moves to the next page unless this many lines of what follows fit under it. */
const LINES_KEPT_WITH_HEADING = 3;

type Pdf = PDFKit.PDFDocument;

export function renderHandbookPdf(original: HandbookDocument): Promise<Buffer> {
  const doc = printable(original);
  const pages = layOut(doc, null).pages;
  const { pdf } = layOut(doc, pages);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.end();
  });
}

/** Lays the whole handbook out; `pageOf` (from a first pass) fills the contents' page numbers. */
function layOut(doc: HandbookDocument, pageOf: ReadonlyMap<string, number> | null): { pdf: Pdf; pages: Map<string, number> } {
  const published = new Date(doc.publishedAt);
  const pdf = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: true,
    lang: 'en-US',
    displayTitle: true,
    info: {
      Title: handbookTitle(doc),
      Author: doc.businessName,
      Subject: `Employee handbook, version ${doc.version}, covering ${listInWords(doc.regionNames)}`,
      Keywords: ['employee handbook', 'policies', ...doc.regionNames].join(', '),
      Creator: 'Statehouse',
      // The publication date, so the same version always yields the same document.
      CreationDate: published,
      ModDate: published,
    },
  });
  const pages = new Map<string, number>();
  let page = 1;
  pdf.on('pageAdded', () => (page += 1));
  const mark = (anchor: string, outlineTitle: string, parent = pdf.outline) => {
    pages.set(anchor, page);
    pdf.addNamedDestination(anchor, 'XYZ', pdf.page.margins.left, pdf.y, 0);
    return parent.addItem(outlineTitle);
  };

  cover(pdf, doc);

  pdf.addPage();
  contents(pdf, doc, pageOf);

  for (const section of doc.sections) {
    pdf.addPage();
    const sectionAnchor = `section-${section.region.toLowerCase()}`;
    const outline = mark(sectionAnchor, section.heading);
    pdf.font('Helvetica-Bold').fontSize(20).fillColor(INK).text(section.heading);
    rule(pdf);
    for (const policy of section.policies) {
      const blocks = textBlocks(policy.text);
      keepWithNext(pdf, policy.title, blocks[0]);
      mark(`policy-${policy.id}`, policy.title, outline);
      pdf.font('Helvetica-Bold').fontSize(13).fillColor(INK).text(policy.title, { paragraphGap: 4 });
      for (const block of blocks) writeBlock(pdf, block);
      pdf.moveDown(0.6);
    }
  }

  pdf.addPage();
  mark('acknowledgement', 'Acknowledgement of receipt');
  acknowledgementForm(pdf, doc);

  footers(pdf, doc);
  return { pdf, pages };
}

function cover(pdf: Pdf, doc: HandbookDocument) {
  const width = contentWidth(pdf);
  pdf.y = 180;
  pdf.font('Helvetica-Bold').fontSize(11).fillColor(ACCENT).text('EMPLOYEE HANDBOOK', { characterSpacing: 1.5 });
  pdf.moveDown(0.4);
  pdf.font('Helvetica-Bold').fontSize(30).fillColor(INK).text(doc.businessName, { width });
  rule(pdf, 3, ACCENT);
  pdf.font('Helvetica').fontSize(12).fillColor(INK);
  for (const [label, value] of [
    ['Version', String(doc.version)],
    ['Published', publishedOn(doc)],
    ['Covers', listInWords(doc.regionNames)],
  ] as const) {
    pdf.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
  }
  pdf.moveDown(2.5);
  pdf.font('Helvetica-Bold').fontSize(13).text('About this handbook', { paragraphGap: 6 });
  for (const paragraph of handbookIntroduction(doc))
    pdf.font('Helvetica').fontSize(BODY_SIZE).fillColor(INK).text(paragraph, { paragraphGap: 6, lineGap: 2 });
}

function contents(pdf: Pdf, doc: HandbookDocument, pageOf: ReadonlyMap<string, number> | null) {
  pdf.font('Helvetica-Bold').fontSize(20).fillColor(INK).text('Contents');
  rule(pdf);
  const row = (title: string, anchor: string, level: 0 | 1) => {
    const indent = level ? 16 : 0;
    const x = pdf.page.margins.left + indent;
    const width = contentWidth(pdf) - indent - PAGE_NUMBER_WIDTH - 8;
    pdf.font(level ? 'Helvetica' : 'Helvetica-Bold').fontSize(level ? BODY_SIZE : 12);
    const height = pdf.heightOfString(title, { width });
    if (pdf.y + height > pdf.page.maxY()) pdf.addPage();
    if (!level) pdf.moveDown(0.4);
    const y = pdf.y;
    pdf.fillColor(INK).text(title, x, y, { width, goTo: anchor });
    const after = pdf.y;
    pdf.fillColor(MUTED).text(String(pageOf?.get(anchor) ?? ''), pdf.page.width - pdf.page.margins.right - PAGE_NUMBER_WIDTH, y, {
      width: PAGE_NUMBER_WIDTH,
      align: 'right',
      lineBreak: false,
    });
    pdf.x = pdf.page.margins.left;
    pdf.y = after + 2;
  };
  for (const section of doc.sections) {
    row(section.heading, `section-${section.region.toLowerCase()}`, 0);
    for (const policy of section.policies) row(policy.title, `policy-${policy.id}`, 1);
  }
  row('Acknowledgement of receipt', 'acknowledgement', 0);
}

/** Starts a new page when the heading and the first lines of its text would not fit on this one. */
function keepWithNext(pdf: Pdf, heading: string, first: TextBlock | undefined) {
  const width = contentWidth(pdf);
  pdf.font('Helvetica-Bold').fontSize(13);
  let needed = pdf.heightOfString(heading, { width }) + 4;
  pdf.font('Helvetica').fontSize(BODY_SIZE);
  if (first) {
    const firstText = first.kind === 'paragraph' ? first.text : (first.items[0] ?? '');
    needed += Math.min(pdf.heightOfString(firstText, { width, lineGap: 2 }), LINES_KEPT_WITH_HEADING * pdf.currentLineHeight(true));
  }
  if (pdf.y + needed > pdf.page.maxY()) pdf.addPage();
}

function writeBlock(pdf: Pdf, block: TextBlock) {
  pdf.font('Helvetica').fontSize(BODY_SIZE).fillColor(INK);
  if (block.kind === 'paragraph')
    pdf.text(block.text, pdf.page.margins.left, pdf.y, { width: contentWidth(pdf), lineGap: 2, paragraphGap: 6 });
  else {
    pdf
      .list(block.items, pdf.page.margins.left + 6, pdf.y, {
        bulletRadius: 1.8,
        bulletIndent: 0,
        textIndent: 12,
        lineGap: 2,
        paragraphGap: 3,
        width: contentWidth(pdf) - 6,
      })
      .moveDown(0.4);
    pdf.x = pdf.page.margins.left;
  }
}

/** The last page: a form an employee who reads the handbook on paper signs and hands back. */
function acknowledgementForm(pdf: Pdf, doc: HandbookDocument) {
  const width = contentWidth(pdf);
  const left = pdf.page.margins.left;
  pdf.font('Helvetica-Bold').fontSize(20).fillColor(INK).text('Acknowledgement of receipt');
  rule(pdf);
  pdf.font('Helvetica').fontSize(11).text(acknowledgementStatement(doc), { width, lineGap: 3, paragraphGap: 10 });
  pdf
    .fillColor(MUTED)
    .fontSize(BODY_SIZE)
    .text(
      `Sign and date this page and give it to ${doc.contact ?? 'your manager'}; keep the rest of the handbook. If you received this handbook by e-mail, you can acknowledge it through your link instead.`,
      { width, lineGap: 2 },
    );
  pdf.moveDown(3);
  for (const label of ['Employee name (print)', 'Signature', 'Date']) {
    const y = pdf.y + 28;
    pdf
      .moveTo(left, y)
      .lineTo(left + width * 0.7, y)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke();
    pdf
      .font('Helvetica')
      .fontSize(9.5)
      .fillColor(MUTED)
      .text(label, left, y + 4);
    pdf.moveDown(1.5);
  }
}

/** "<business> employee handbook" and "Version N · Page X of Y" at the foot of every page after the cover. */
function footers(pdf: Pdf, doc: HandbookDocument) {
  const { start, count } = pdf.bufferedPageRange();
  for (let i = start + 1; i < start + count; i++) {
    pdf.switchToPage(i);
    const { left, right, bottom } = pdf.page.margins;
    const width = pdf.page.width - left - right;
    const y = pdf.page.height - bottom + 28;
    // Writing below the bottom margin would start a new page; the footer sits in the margin on purpose.
    pdf.page.margins.bottom = 0;
    pdf.font('Helvetica').fontSize(8.5).fillColor(MUTED);
    // The version and page never give way; a long business name is shortened with an ellipsis instead.
    const versionAndPage = `Version ${doc.version} · Page ${i - start + 1} of ${count}`;
    const rightWidth = pdf.widthOfString(versionAndPage) + 2;
    pdf.text(handbookTitle(doc), left, y, { width: width - rightWidth - 16, lineBreak: false, ellipsis: true, height: 12 });
    pdf.text(versionAndPage, left + width - rightWidth, y, { width: rightWidth, align: 'right', lineBreak: false });
    pdf.page.margins.bottom = bottom;
  }
}

function rule(pdf: Pdf, thickness = 1, color = '#d0d7de') {
  const y = pdf.y + 6;
  pdf
    .moveTo(pdf.page.margins.left, y)
    .lineTo(pdf.page.width - pdf.page.margins.right, y)
    .lineWidth(thickness)
    .strokeColor(color)
    .stroke();
  pdf.x = pdf.page.margins.left;
  pdf.y = y + 14;
}

/**
 * The built-in fonts draw only the Windows-1252 (WinAnsi) characters; any other character would print as
 * garbage. Common symbols get a readable stand-in, anything else a '?'.
 */
const WIN_ANSI_BEYOND_LATIN1 = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const STAND_INS: Record<string, string> = {
  '≥': '>=',
  '≤': '<=',
  '≠': '!=',
  '→': '->',
  '←': '<-',
  '−': '-',
  '‐': '-',
  '‑': '-',
  '′': "'",
  '″': '"',
  '✓': '*',
  '✔': '*',
};
export function pdfText(text: string): string {
  return [...text.normalize('NFC')]
    .map((c) => {
      const code = c.codePointAt(0)!;
      if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || c === '\n' || WIN_ANSI_BEYOND_LATIN1.has(c)) return c;
      if (c === '\t' || /\s/u.test(c)) return ' ';
      return STAND_INS[c] ?? '?';
    })
    .join('');
}

function printable(doc: HandbookDocument): HandbookDocument {
  return {
    ...doc,
    businessName: pdfText(doc.businessName),
    regionNames: doc.regionNames.map(pdfText),
    ...(doc.contact === undefined ? {} : { contact: pdfText(doc.contact) }),
    sections: doc.sections.map((section) => ({
      ...section,
      heading: pdfText(section.heading),
      policies: section.policies.map((policy) => ({ ...policy, title: pdfText(policy.title), text: pdfText(policy.text) })),
    })),
  };
}

const contentWidth = (pdf: Pdf) => pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
