import { describe, expect, it } from 'vitest';
import { handbookArticle, textBlocks, type HandbookDocument } from './handbook-document.js';

const doc: HandbookDocument = {
  businessName: 'Acme <script>alert(1)</script> & Sons',
  version: 2,
  publishedAt: '2026-03-04T23:30:00.000Z',
  regionNames: ['California', 'New York'],
  contact: 'Dana "HR" Lee',
  sections: [
    {
      region: 'US',
      heading: 'Policies for every employee',
      policies: [
        {
          id: 'us-equal-employment-opportunity',
          title: 'Equal employment opportunity',
          text: 'We hire on merit.\n\nTo report a concern:\n- tell your manager\n- or tell <b>HR</b>',
        },
        { id: 'us-paid-vacation', title: 'Paid vacation', text: 'Ten days.' },
      ],
    },
    { region: 'CA', heading: 'California', policies: [{ id: 'ca-paid-sick-leave', title: 'Paid sick leave', text: 'Forty hours.' }] },
  ],
};

const page = String(handbookArticle(doc));

describe('the handbook article', () => {
  it('escapes everything the owner wrote', () => {
    expect(page).not.toContain('<script>');
    expect(page).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons employee handbook');
    expect(page).toContain('or tell &lt;b&gt;HR&lt;/b&gt;');
    expect(page).toContain('Dana &quot;HR&quot; Lee');
  });

  it('opens with the version, the publication date in words and the states it covers', () => {
    expect(page).toMatch(/<dt>Version<\/dt><dd>2<\/dd>/);
    expect(page).toContain('<time datetime="2026-03-04T23:30:00.000Z">March 4, 2026</time>');
    expect(page).toContain('<dd>California and New York</dd>');
    expect(page).toContain('The sections for California add what the law of that state provides');
  });

  it('links every section and policy from the contents to an anchor that exists, once', () => {
    const links = [...page.matchAll(/<a href="#([^"]+)">/g)].map((m) => m[1]!);
    expect(links).toEqual(
      expect.arrayContaining([
        'handbook-us',
        'policy-us-equal-employment-opportunity',
        'policy-us-paid-vacation',
        'handbook-ca',
        'policy-ca-paid-sick-leave',
        'handbook-contents',
      ]),
    );
    for (const anchor of links) expect(page.match(new RegExp(`id="${anchor}"`, 'g')), anchor).toHaveLength(1);
  });

  it('puts the policies for every employee first, then each state, with one heading level per layer', () => {
    const headings = [...page.matchAll(/<h(\d)[^>]*>([^<]+)<\/h\1>/g)].map((m) => `h${m[1]} ${m[2]}`);
    expect(headings).toEqual([
      'h2 Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons employee handbook',
      'h3 Contents',
      'h3 Policies for every employee',
      'h4 Equal employment opportunity',
      'h4 Paid vacation',
      'h3 California',
      'h4 Paid sick leave',
    ]);
    expect(page).toMatch(/<p>To report a concern:<\/p>\s*<ul><li>tell your manager<\/li><li>or tell &lt;b&gt;HR&lt;\/b&gt;<\/li><\/ul>/);
  });

  it('says every policy applies everywhere when there is no state section', () => {
    const federalOnly = String(handbookArticle({ ...doc, regionNames: ['Texas'], sections: [doc.sections[0]!] }));
    expect(federalOnly).toContain('Every policy in this handbook applies to everyone');
  });
});

describe('the policy text format', () => {
  it('splits paragraphs at blank lines and gathers consecutive bullets into one list', () => {
    expect(textBlocks('One\ntwo.\n\n- a\n- b\nAfter.')).toEqual([
      { kind: 'paragraph', text: 'One two.' },
      { kind: 'list', items: ['a', 'b'] },
      { kind: 'paragraph', text: 'After.' },
    ]);
  });
});
