import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadHandbookCatalog } from '../../catalog/handbook.js';
import { buildDocument, deriveHandbook } from './handbook.fns.js';

// A small catalog of our own with one city policy, to test the `in_locality` condition and its loader rules.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const source = '    sources: [{ title: A source, url: "https://example.gov/rule" }]\n    confidence: confirmed\n';
const US = `region: US
policies:
  - id: us-rule
    title: Everyone
    category: employment
    adoption: required
    summary: Everyone.
    body: "Everyone at {company}."
${source}`;
const IL_QUESTION = `  - id: il-chicago
    prompt: Do any of your employees work in Chicago?
    type: boolean
    locality: Chicago
`;
const IL_POLICIES = `  - id: il-state-leave
    title: State leave
    category: leave
    adoption: required
    summary: State leave.
    body: "Leave in {region}."
${source}  - id: il-chicago-leave
    title: Chicago leave
    category: leave
    adoption: required
    summary: City leave.
    body: "Leave in Chicago."
    applies_when: { in_locality: il-chicago }
${source}`;

function catalogDir(files: Record<string, string>, questions = 'questions: []\n'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'handbook-locality-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'policies'));
  writeFileSync(path.join(dir, 'questions.yaml'), questions);
  for (const [name, text] of Object.entries({ 'US.yaml': US, ...files })) writeFileSync(path.join(dir, 'policies', name), text);
  return dir;
}

const catalog = loadHandbookCatalog(catalogDir({ 'IL.yaml': `region: IL\nquestions:\n${IL_QUESTION}policies:\n${IL_POLICIES}` }));
const loc = (regionCode: string, employeeCount: number | null) => ({ regionCode, hasEmployees: true, employeeCount });
const ids = (d: ReturnType<typeof deriveHandbook>) => d.applicable.map((a) => a.policy.id);

describe('a city policy (applies_when.in_locality)', () => {
  it('asks the locality question of an employee state, and blocks publishing until it is answered', () => {
    const d = deriveHandbook(catalog, [loc('IL', 3)], { answers: {}, choices: {} });
    expect(ids(d)).toEqual(['us-rule', 'il-state-leave']);
    expect(d.questions.map((q) => q.id)).toEqual(['il-chicago']);
    expect(d.unanswered).toEqual(['il-chicago']);
    expect(d.publishable).toBe(false);
    expect(d.blockers).toEqual(['Answer one more question.']);
  });

  it('includes the required city policy, whatever the owner chose, when employees work there', () => {
    const draft = { answers: { 'il-chicago': true }, choices: { 'il-chicago-leave': 'skip' as const } };
    const d = deriveHandbook(catalog, [loc('IL', 3)], draft);
    expect(ids(d)).toEqual(['us-rule', 'il-state-leave', 'il-chicago-leave']);
    expect(d.applicable.every((a) => a.included)).toBe(true);
    expect(d.publishable).toBe(true);
    const doc = buildDocument(catalog, d, draft, { businessName: 'Acme LLC', version: 1, publishedAt: new Date('2026-11-28T00:00:00Z') });
    expect(doc.sections.map((s) => [s.region, s.policies.map((p) => p.id)])).toEqual([
      ['US', ['us-rule']],
      ['IL', ['il-state-leave', 'il-chicago-leave']],
    ]);
  });

  it('leaves the city policy out when no employee works there', () => {
    const d = deriveHandbook(catalog, [loc('IL', 3)], { answers: { 'il-chicago': false }, choices: {} });
    expect(ids(d)).toEqual(['us-rule', 'il-state-leave']);
    expect(d.publishable).toBe(true);
  });

  it('asks nothing about the city without employees in its state', () => {
    const d = deriveHandbook(catalog, [loc('CA', 3)], { answers: { 'il-chicago': true }, choices: {} });
    expect(ids(d)).toEqual(['us-rule']);
    expect(d.questions).toEqual([]);
  });
});

describe('the loader, for locality questions and conditions', () => {
  const il = (question: string, policies = IL_POLICIES) => ({ 'IL.yaml': `region: IL\nquestions:\n${question}policies:\n${policies}` });

  it('refuses a locality question that is not yes/no, or that has a default', () => {
    expect(() => loadHandbookCatalog(catalogDir(il(IL_QUESTION.replace('type: boolean', 'type: text'))))).toThrow(
      /IL\.yaml: \/questions\/0\/type: a locality question is a yes\/no/,
    );
    expect(() => loadHandbookCatalog(catalogDir(il(`${IL_QUESTION}    default: false\n`)))).toThrow(
      /\/questions\/0\/default: a locality question has no default/,
    );
  });

  it('refuses a locality question outside a state file', () => {
    expect(() => loadHandbookCatalog(catalogDir(il(IL_QUESTION), `questions:\n${IL_QUESTION.replace('il-chicago', 'chicago')}`))).toThrow(
      /questions\.yaml: \/questions\/0\/locality: a locality question belongs to the file of its state/,
    );
  });

  it("refuses in_locality naming an ordinary question, an unknown one, or another state's", () => {
    const plain = IL_QUESTION.replace('    locality: Chicago\n', '');
    expect(() => loadHandbookCatalog(catalogDir(il(plain)))).toThrow(
      /\/policies\/1\/applies_when\/in_locality: 'il-chicago' is not a locality question of this file/,
    );
    expect(() =>
      loadHandbookCatalog(catalogDir(il(IL_QUESTION, IL_POLICIES.replace('in_locality: il-chicago', 'in_locality: il-peoria')))),
    ).toThrow(/'il-peoria' is not a locality question/);
    const ny = `region: NY\npolicies:\n  - id: ny-city\n    title: City\n    category: leave\n    adoption: required\n    summary: City.\n    body: "City."\n    applies_when: { in_locality: il-chicago }\n${source}`;
    expect(() => loadHandbookCatalog(catalogDir({ ...il(IL_QUESTION), 'NY.yaml': ny }))).toThrow(
      /NY\.yaml: \/policies\/0\/applies_when\/in_locality: 'il-chicago' is not a locality question of this file/,
    );
  });
});
