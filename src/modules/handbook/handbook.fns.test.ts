import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadHandbookCatalog } from '../../catalog/handbook.js';
import { acknowledgementStats, buildDocument, deriveHandbook, parseAnswer } from './handbook.fns.js';

// A small catalog of our own: the rules are tested on it, not on the real catalog's growing content.
const dir = mkdtempSync(path.join(tmpdir(), 'handbook-fns-'));
mkdirSync(path.join(dir, 'policies'));
const source = '    sources: [{ title: A source, url: "https://example.gov/rule" }]\n    confidence: confirmed\n';
writeFileSync(
  path.join(dir, 'questions.yaml'),
  `questions:
  - { id: contact, prompt: Whom to contact?, type: text }
  - { id: offers-bonus, prompt: Do you pay bonuses?, type: boolean, default: false }
  - { id: bonus-month, prompt: In which month?, type: integer, min: 1, max: 12 }
`,
);
writeFileSync(
  path.join(dir, 'policies', 'US.yaml'),
  `region: US
policies:
  - id: us-big
    title: Big employer rule
    category: employment
    adoption: required
    summary: Only from 15 employees in total.
    body: "Ask {answer:contact}."
    uses: [contact]
    applies_when: { min_employees: 15 }
${source}  - id: us-bonus
    title: Bonus
    category: pay
    adoption: optional
    summary: Bonuses.
    body: "{company} pays a bonus in month {answer:bonus-month}."
    uses: [bonus-month]
    applies_when: { answers: [{ question: offers-bonus, equals: true }] }
${source}`,
);
writeFileSync(
  path.join(dir, 'policies', 'CA.yaml'),
  `region: CA
policies:
  - id: ca-sick
    title: Sick leave
    category: leave
    adoption: required
    summary: Sick leave in {region}.
    body: "Employees in {region} earn sick leave."
${source}  - id: ca-five
    title: Five or more
    category: conduct
    adoption: optional
    summary: From five employees in California.
    body: "Training for everyone at {company}."
    applies_when: { min_employees: 5 }
${source}`,
);
writeFileSync(
  path.join(dir, 'policies', 'NY.yaml'),
  `region: NY
policies:
  - id: ny-rest
    title: Rest
    category: time
    adoption: required
    summary: Rest.
    body: "Rest in {region}."
${source}`,
);
const catalog = loadHandbookCatalog(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const loc = (regionCode: string, employeeCount: number | null, hasEmployees: boolean | null = true) => ({
  regionCode,
  hasEmployees,
  employeeCount,
});
const ids = (d: ReturnType<typeof deriveHandbook>) => d.applicable.map((a) => a.policy.id);

describe('deriveHandbook', () => {
  it('no state with employees: no policies, not publishable, and it says why', () => {
    const d = deriveHandbook(catalog, [loc('CA', 3, false)], { answers: {}, choices: {} });
    expect(d.applicable).toEqual([]);
    expect(d.adoptable).toBe(0);
    expect(d.publishable).toBe(false);
    expect(d.blockers).toEqual(['Add at least one state where you have employees.']);
  });

  it('federal thresholds count every state; a state threshold counts only that state', () => {
    expect(ids(deriveHandbook(catalog, [loc('CA', 4), loc('NY', 10)], { answers: {}, choices: {} }))).toEqual(['ca-sick', 'ny-rest']);
    expect(ids(deriveHandbook(catalog, [loc('CA', 5), loc('NY', 10)], { answers: {}, choices: {} }))).toEqual([
      'us-big',
      'ca-five',
      'ca-sick',
      'ny-rest',
    ]);
  });

  it('an unknown employee count blocks publishing and a policy that depends on it', () => {
    const d = deriveHandbook(catalog, [loc('CA', null)], { answers: {}, choices: {} });
    expect(d.missingCounts).toEqual(['CA']);
    expect(ids(d)).toEqual(['ca-sick']);
    expect(d.publishable).toBe(false);
    expect(d.blockers[0]).toContain('California');
  });

  it('asks the questions of included policies and of conditions; an answer brings in an optional policy', () => {
    const before = deriveHandbook(catalog, [loc('CA', 20)], { answers: {}, choices: {} });
    expect(before.questions.map((q) => q.id)).toEqual(['contact', 'offers-bonus']);
    expect(before.unanswered).toEqual(['contact', 'offers-bonus']);
    const after = deriveHandbook(catalog, [loc('CA', 20)], { answers: { contact: 'Ana', 'offers-bonus': true }, choices: {} });
    expect(ids(after)).toContain('us-bonus');
    expect(after.questions.map((q) => q.id)).toEqual(['contact', 'offers-bonus', 'bonus-month']);
    expect(after.publishable).toBe(false);
    const done = deriveHandbook(catalog, [loc('CA', 20)], {
      answers: { contact: 'Ana', 'offers-bonus': true, 'bonus-month': 12 },
      choices: {},
    });
    expect(done.publishable).toBe(true);
    expect(done.adoptable).toBe(4);
  });

  it('a skipped optional policy still counts as adoptable but is not included, and its questions are no longer asked', () => {
    const d = deriveHandbook(catalog, [loc('CA', 20)], {
      answers: { contact: 'Ana', 'offers-bonus': true },
      choices: { 'us-bonus': 'skip', 'ca-sick': 'skip' },
    });
    expect(d.adoptable).toBe(4);
    expect(d.applicable.find((a) => a.policy.id === 'us-bonus')?.included).toBe(false);
    // A required policy cannot be skipped.
    expect(d.applicable.find((a) => a.policy.id === 'ca-sick')?.included).toBe(true);
    expect(d.unanswered).toEqual([]);
    expect(d.publishable).toBe(true);
  });
});

describe('buildDocument', () => {
  it('federal section first, then each state; placeholders filled; skipped policies left out', () => {
    const draft = {
      answers: { contact: 'Ana at hr@example.com', 'offers-bonus': true, 'bonus-month': 12 },
      choices: { 'ca-five': 'skip' as const },
    };
    const d = deriveHandbook(catalog, [loc('NY', 1), loc('CA', 20)], draft);
    const doc = buildDocument(catalog, d, draft, {
      businessName: 'Rose & Thorn',
      version: 2,
      publishedAt: new Date('2026-11-24T10:00:00Z'),
    });
    expect(doc.regionNames).toEqual(['California', 'New York']);
    expect(doc.sections.map((s) => [s.region, s.policies.map((p) => p.id)])).toEqual([
      ['US', ['us-big', 'us-bonus']],
      ['CA', ['ca-sick']],
      ['NY', ['ny-rest']],
    ]);
    expect(doc.sections[0]!.policies[0]!.text).toBe('Ask Ana at hr@example.com.');
    expect(doc.sections[0]!.policies[1]!.text).toBe('Rose & Thorn pays a bonus in month 12.');
    expect(doc.sections[2]!.policies[0]!.text).toBe('Rest in New York.');
    expect(doc).toMatchObject({ version: 2, publishedAt: '2026-11-24T10:00:00.000Z', businessName: 'Rose & Thorn' });
  });
});

describe('acknowledgementStats', () => {
  it('puts each active employee in exactly one bucket', () => {
    expect(
      acknowledgementStats(
        [
          { hasEmail: true, acknowledged: [1, 2] },
          { hasEmail: false, acknowledged: [2] },
          { hasEmail: true, acknowledged: [1] },
          { hasEmail: true, acknowledged: [] },
          { hasEmail: false, acknowledged: [] },
        ],
        2,
      ),
    ).toEqual({ signed: 2, outdated: 1, pending: 1, missing_emails: 1 });
  });
});

describe('parseAnswer', () => {
  const q = (id: string) => catalog.questions.get(id)!;
  it('reads form text as the question type, refusing what does not fit', () => {
    expect(parseAnswer(q('offers-bonus'), 'true')).toBe(true);
    expect(parseAnswer(q('offers-bonus'), 'maybe')).toBeNull();
    expect(parseAnswer(q('bonus-month'), ' 12 ')).toBe(12);
    expect(parseAnswer(q('bonus-month'), '13')).toBeNull();
    expect(parseAnswer(q('bonus-month'), '1.5')).toBeNull();
    expect(parseAnswer(q('contact'), '   ')).toBeUndefined();
    expect(parseAnswer(q('contact'), 'x'.repeat(501))).toBeNull();
  });
});

describe('buildDocument on the real catalog', () => {
  it('names the HR contact the owner gave, for the introduction and the acknowledgement form', () => {
    const real = loadHandbookCatalog();
    const draft = { answers: { 'hr-contact': ' Dana Reyes ' }, choices: {} };
    const d = deriveHandbook(real, [loc('CA', 20)], draft);
    const doc = buildDocument(real, d, draft, { businessName: 'Harbor Labs', version: 1, publishedAt: new Date('2026-11-24T10:00:00Z') });
    expect((doc as { contact?: string }).contact).toBe('Dana Reyes');
    const none = buildDocument(
      real,
      d,
      { answers: {}, choices: {} },
      { businessName: 'Harbor Labs', version: 1, publishedAt: new Date('2026-11-24T10:00:00Z') },
    );
    expect('contact' in none).toBe(false);
  });
});
