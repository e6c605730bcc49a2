import { describe, expect, it } from 'vitest';
import { deriveHandbook } from '../modules/handbook/handbook.fns.js';
import { pdfText } from '../modules/handbook/handbook-pdf.js';
import { fillPolicyText, loadHandbookCatalog } from './handbook.js';

/** The city paid leave ordinances of the handbook: one locality question and one required policy per city. */
const catalog = loadHandbookCatalog();
const CITIES = {
  'il-chicago': 'il-chicago-paid-leave',
  'ny-new-york-city': 'ny-nyc-safe-and-sick-leave',
  'wa-seattle': 'wa-seattle-paid-sick-safe-time',
  'ca-san-francisco': 'ca-san-francisco-paid-sick-leave',
  'ca-los-angeles': 'ca-los-angeles-paid-sick-leave',
  'mn-minneapolis': 'mn-minneapolis-sick-safe-time',
  'mn-saint-paul': 'mn-saint-paul-sick-safe-time',
};

describe('city paid leave ordinances in the handbook', () => {
  it('each have a yes/no locality question without a default and a required leave policy of the same state that depends only on it', () => {
    for (const [questionId, policyId] of Object.entries(CITIES)) {
      const question = catalog.questions.get(questionId);
      const policy = catalog.policy(policyId);
      expect(question?.type, questionId).toBe('boolean');
      expect(question?.locality, questionId).toBeTruthy();
      expect(question?.default, questionId).toBeUndefined();
      expect(policy?.region.toLowerCase(), policyId).toBe(questionId.slice(0, 2));
      expect(policy?.adoption, policyId).toBe('required');
      expect(policy?.category, policyId).toBe('leave');
      expect(policy?.applies_when, policyId).toEqual({ in_locality: questionId });
      expect(policy?.sources.every((s) => s.says), policyId).toBe(true);
      if (policy?.confidence === 'uncertain') expect(policy.notes, policyId).toMatch(/\w{3,}/);
    }
  });

  it('are planned for a Chicago employer only once it says employees work in Chicago', () => {
    const il = [{ regionCode: 'IL', hasEmployees: true, employeeCount: 12 }];
    const unanswered = deriveHandbook(catalog, il, { answers: {}, choices: {} });
    expect(unanswered.unanswered).toContain('il-chicago');
    expect(unanswered.applicable.map((a) => a.policy.id)).not.toContain('il-chicago-paid-leave');
    const yes = deriveHandbook(catalog, il, { answers: { 'il-chicago': true }, choices: {} });
    expect(yes.applicable.find((a) => a.policy.id === 'il-chicago-paid-leave')?.included).toBe(true);
    expect(yes.applicable.map((a) => a.policy.id)).toContain('il-paid-leave');
    const no = deriveHandbook(catalog, il, { answers: { 'il-chicago': false }, choices: {} });
    expect(no.applicable.map((a) => a.policy.id)).not.toContain('il-chicago-paid-leave');
  });

  it('ask about San Francisco and Los Angeles separately for California employers', () => {
    const ca = [{ regionCode: 'CA', hasEmployees: true, employeeCount: 5 }];
    const d = deriveHandbook(catalog, ca, { answers: { 'ca-san-francisco': false, 'ca-los-angeles': true }, choices: {} });
    const ids = d.applicable.map((a) => a.policy.id);
    expect(ids).toContain('ca-los-angeles-paid-sick-leave');
    expect(ids).not.toContain('ca-san-francisco-paid-sick-leave');
    expect(d.questions.map((q) => q.id)).toEqual(expect.arrayContaining(['ca-san-francisco', 'ca-los-angeles']));
  });

  it('read completely and print in the PDF\'s fonts', () => {
    const answers = { 'hr-contact': 'Dana Lee (dana@example.com)' };
    for (const policyId of Object.values(CITIES)) {
      const policy = catalog.policy(policyId)!;
      const text = fillPolicyText(policy.body, { company: 'Acme LLC', regionName: 'Illinois', answers, questions: catalog.questions });
      expect(text, policyId).not.toMatch(/____|\{/);
      expect(pdfText(text), policyId).toBe(text.normalize('NFC'));
      expect(pdfText(policy.title), policyId).toBe(policy.title);
    }
  });
});
