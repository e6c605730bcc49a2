import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { fillPolicyText, loadHandbookCatalog } from '../../catalog/handbook.js';
import type { HandbookDocument } from '../../pages/handbook-document.js';
import { pdfText, renderHandbookPdf } from './handbook-pdf.js';

const paragraph =
  'We explain what we do and why, in plain words an employee can read on paper or on a phone, and whom to ask when something is unclear.';
const policyText = (n: number) =>
  [...Array.from({ length: n }, () => paragraph), '- the first thing to know\n- the second thing to know'].join('\n\n');

/** Policies of varied lengths, so that headings land at every height of a page. */
function handbook(federalPolicies: number, overrides: Partial<HandbookDocument> = {}): HandbookDocument {
  return {
    businessName: 'Acme Widgets LLC',
    version: 3,
    publishedAt: '2026-03-04T15:00:00.000Z',
    regionNames: ['California', 'New York'],
    contact: 'Dana Lee (dana@acme.test)',
    sections: [
      {
        region: 'US',
        heading: 'Policies for every employee',
        policies: Array.from({ length: federalPolicies }, (_, i) => ({
          id: `us-policy-${i}`,
          title: `Federal policy number ${i}`,
          text: policyText(1 + ((i * 7) % 6)),
        })),
      },
      {
        region: 'CA',
        heading: 'California',
        policies: [{ id: 'ca-sick-leave', title: 'Paid sick leave in California', text: policyText(3) }],
      },
      { region: 'NY', heading: 'New York', policies: [{ id: 'ny-sick-leave', title: 'Paid sick leave in New York', text: policyText(3) }] },
    ],
    ...overrides,
  };
}

async function parse(pdf: Buffer) {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const text = await parser.getText();
    const info = await parser.getInfo();
    return { pages: text.pages.map((p) => p.text), info: info.info as Record<string, unknown> };
  } finally {
    await parser.destroy();
  }
}

describe('the handbook PDF', () => {
  it('opens with a cover naming the business, version, date and states, then the contents, the policies in order and the acknowledgement form', async () => {
    const { pages } = await parse(await renderHandbookPdf(handbook(3)));
    expect(pages[0]).toContain('Acme Widgets LLC');
    expect(pages[0]).toMatch(/Version:\s*3/);
    expect(pages[0]).toContain('March 4, 2026');
    expect(pages[0]).toContain('California and New York');
    expect(pages[0]).toContain('About this handbook');
    expect(pages[1]).toMatch(/^Contents/);
    const body = pages.slice(2).join('\n');
    const order = [
      'Policies for every employee',
      'Federal policy number 0',
      'Federal policy number 2',
      'Paid sick leave in California',
      'Paid sick leave in New York',
      'Acknowledgement of receipt',
    ].map((t) => body.indexOf(t));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const last = pages.at(-1)!;
    expect(last).toContain('I have received version 3 of the Acme Widgets LLC employee handbook, published March 4,');
    for (const label of ['Employee name (print)', 'Signature', 'Date']) expect(last).toContain(label);
    expect(last).toContain('Dana Lee (dana@acme.test)');
  });

  it('prints the page each section and policy starts on in the contents', async () => {
    const { pages } = await parse(await renderHandbookPdf(handbook(12)));
    const pageOf = (title: string) => pages.findIndex((text, i) => i > 1 && text.split('\n').some((line) => line.trim() === title)) + 1;
    for (const title of ['California', 'Federal policy number 11', 'Paid sick leave in New York', 'Acknowledgement of receipt']) {
      const entry = new RegExp(`^${title}\\s+(\\d+)$`, 'm').exec(pages[1]!);
      expect(entry, title).not.toBeNull();
      expect(Number(entry![1]), title).toBe(pageOf(title));
    }
  });

  it('starts each state on a new page and carries a footer with the business, the version and page X of Y after the cover', async () => {
    const { pages } = await parse(await renderHandbookPdf(handbook(2)));
    expect(pages.some((text) => text.startsWith('California\n'))).toBe(true);
    expect(pages.some((text) => text.startsWith('New York\n'))).toBe(true);
    expect(pages[0]).not.toMatch(/Page 1 of/);
    pages.slice(1).forEach((text, i) => {
      expect(text).toMatch(new RegExp(`Acme Widgets LLC employee handbook\\s+Version 3 · Page ${i + 2} of ${pages.length}`));
    });
  });

  it('grows with the policies and keeps every policy title with at least the first lines of its text', async () => {
    const short = await parse(await renderHandbookPdf(handbook(2)));
    const long = await parse(await renderHandbookPdf(handbook(20)));
    expect(long.pages.length).toBeGreaterThan(short.pages.length + 3);
    for (const text of long.pages.slice(2)) {
      const lines = text.split('\n').filter((line) => line.trim() && !/Version 3|Page \d+ of/.test(line));
      const lastTitle = lines.map((line) => /^(Federal policy number \d+|Paid sick leave in .*)$/.test(line)).lastIndexOf(true);
      // Every paragraph of these policies takes two lines: a title keeps at least one whole paragraph.
      if (lastTitle >= 0) expect(lines.length - lastTitle - 1, text).toBeGreaterThanOrEqual(2);
    }
  });

  it('describes itself in its metadata, dated by its publication', async () => {
    const { info } = await parse(await renderHandbookPdf(handbook(1)));
    expect(info).toMatchObject({
      Title: 'Acme Widgets LLC employee handbook',
      Author: 'Acme Widgets LLC',
      Creator: 'Statehouse',
      Language: 'en-US',
    });
    expect(String(info.Subject)).toContain('version 3');
    expect(String(info.CreationDate)).toMatch(/^D:20260304/);
  });

  it('is the same document every time a version is rendered', async () => {
    const doc = handbook(2);
    expect((await renderHandbookPdf(doc)).equals(await renderHandbookPdf(doc))).toBe(true);
  });

  it('prints characters its fonts lack as readable stand-ins instead of garbage', async () => {
    expect(pdfText('Café “Nord” — 5 ≥ 3, 日本')).toBe('Café “Nord” — 5 >= 3, ??');
    const { pages } = await parse(await renderHandbookPdf(handbook(1, { businessName: 'Café Nord ≥ 日本' })));
    expect(pages[0]).toContain('Café Nord >= ??');
  });

  it('renders every federal policy of the catalog, each listed in the contents and printed in full', async () => {
    const catalog = loadHandbookCatalog();
    const answers = {
      ...Object.fromEntries([...catalog.questions.values()].map((q) => [q.id, q.default])),
      'hr-contact': 'Dana Lee (dana@acme.test)',
    };
    const federal = catalog.byRegion.get('US')!;
    const doc = handbook(0, {
      sections: [
        {
          region: 'US',
          heading: 'Policies for every employee',
          policies: federal.map((p) => ({
            id: p.id,
            title: p.title,
            text: fillPolicyText(p.body, { company: 'Acme Widgets LLC', regionName: 'Ohio', answers, questions: catalog.questions }),
          })),
        },
      ],
    });
    const { pages } = await parse(await renderHandbookPdf(doc));
    const firstSection = pages.findIndex((text) => text.startsWith('Policies for every employee\n'));
    const contents = pages.slice(1, firstSection).join('\n');
    // The running footer sits between the last line of one page and the first of the next.
    const body = pages
      .slice(firstSection)
      .map((text) => text.replace(/^.*Version 3.*Page \d+ of \d+$/m, ''))
      .join('\n')
      .replace(/\s+/g, ' ');
    for (const policy of federal) {
      expect(contents, policy.id).toMatch(new RegExp(`${policy.title.replace(/[()]/g, '\\$&')}\\s+\\d+`));
      const lastWords = doc.sections[0]!.policies.find((p) => p.id === policy.id)!
        .text.trim()
        .split(/\s+/)
        .slice(-6)
        .join(' ')
        .replace(/^- /, '');
      expect(body, policy.id).toContain(lastWords);
    }
  });

  it('keeps a very long business name to one footer line, without adding pages', async () => {
    const longName =
      'The Extraordinarily Long-Named Family Bakery, Catering and Event Planning Cooperative of the Greater Metropolitan Area LLC';
    const short = await parse(await renderHandbookPdf(handbook(4)));
    const long = await parse(await renderHandbookPdf(handbook(4, { businessName: longName })));
    expect(long.pages.length).toBe(short.pages.length);
    for (const text of long.pages.slice(1)) {
      const footer = text.split('\n').filter((line) => /Page \d+ of \d+|Version 3/.test(line));
      expect(footer, text).toHaveLength(1);
      expect(footer[0]).toMatch(/^The Extraordinarily Long-Named .*(…|\.\.\.)\s*Version 3 · Page \d+ of \d+$/);
    }
  });
});
