import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillPolicyText, HANDBOOK_DIR, loadHandbookCatalog } from './handbook.js';
import { REGIONS } from './regions.js';

const catalog = loadHandbookCatalog();

/** A copy of the real handbook catalog with one file changed, for the loader's refusals. */
function withEdit(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'handbook-catalog-'));
  cpSync(HANDBOOK_DIR, dir, { recursive: true });
  const target = path.join(dir, file);
  writeFileSync(target, edit(readFileSync(target, 'utf8')));
  return dir;
}

describe('the handbook policy catalog', () => {
  it('loads federal policies first, each with a source that is not a home page', () => {
    expect(catalog.policies[0]?.region).toBe('US');
    for (const policy of catalog.policies) {
      for (const source of policy.sources) expect(new URL(source.url).pathname.replace(/\/$/, ''), `${policy.id}: ${source.url}`).not.toBe('');
    }
  });

  it('names only known regions and unique ids', () => {
    const codes = new Set(['US', ...REGIONS.map((r) => r.code)]);
    expect([...catalog.byRegion.keys()].every((code) => codes.has(code))).toBe(true);
    expect(new Set(catalog.policies.map((p) => p.id)).size).toBe(catalog.policies.length);
  });

  it('refuses a placeholder for a question the policy does not list in uses', () => {
    const dir = withEdit('policies/US.yaml', (text) => text.replace('To ask for one, contact {answer:hr-contact}.', 'Vacation: {answer:vacation-days}.'));
    expect(() => loadHandbookCatalog(dir)).toThrow(/\/policies\/0\/body: \{answer:vacation-days\} needs 'vacation-days' in uses/);
  });

  it('refuses an unknown placeholder, an unknown question and a file named for another region', () => {
    expect(() => loadHandbookCatalog(withEdit('policies/US.yaml', (t) => t.replace('{company} makes', '{employer} makes')))).toThrow(/unknown placeholder \{employer\}/);
    expect(() => loadHandbookCatalog(withEdit('policies/US.yaml', (t) => t.replace('question: offers-paid-vacation', 'question: offers-yachts')))).toThrow(/unknown handbook question 'offers-yachts'/);
    expect(() => loadHandbookCatalog(withEdit('policies/US.yaml', (t) => t.replace('region: US', 'region: CA')))).toThrow(/\/region: must be US or the region code/);
  });

  it('refuses an answer condition the question cannot have and a policy missing its sources', () => {
    expect(() => loadHandbookCatalog(withEdit('policies/US.yaml', (t) => t.replace('equals: true', 'equals: 3')))).toThrow(/not a valid answer to 'offers-paid-vacation'/);
    expect(() => loadHandbookCatalog(withEdit('policies/US.yaml', (t) => t.replace(/ {4}sources:\n(?: {6}.*\n)+/, '')))).toThrow(/Invalid catalog file .*US\.yaml/);
  });

  it('fills the company, the state and the answers, with a visible blank for what is not answered yet', () => {
    const values = { company: 'Acme LLC', regionName: 'California', questions: catalog.questions };
    expect(fillPolicyText('{company} in {region}: {answer:vacation-days} days, {answer:pay-frequency}.', { ...values, answers: { 'vacation-days': 12, 'pay-frequency': 'biweekly' } }))
      .toBe('Acme LLC in California: 12 days, every other week.');
    expect(fillPolicyText('{answer:vacation-days} days', { ...values, answers: {} })).toBe('____ days');
  });
});
