import { describe, expect, it } from 'vitest';
import { pdfText } from '../modules/handbook/handbook-pdf.js';
import { textBlocks } from '../pages/handbook-document.js';
import { fillPolicyText, loadHandbookCatalog } from './handbook.js';
import { REGIONS } from './regions.js';

/** Content checks of the federal policies and the shared questions (the loader test checks the format). */
const catalog = loadHandbookCatalog();
const federal = catalog.byRegion.get('US') ?? [];

describe('the federal handbook policies', () => {
  it('cover what every US employer handbook needs', () => {
    const ids = federal.map((p) => p.id);
    for (const id of ['us-equal-employment-opportunity', 'us-anti-harassment', 'us-reasonable-accommodation', 'us-pay-and-overtime', 'us-lactation-breaks',
      'us-family-medical-leave', 'us-military-leave', 'us-workplace-safety', 'us-employment-eligibility', 'us-at-will-employment', 'us-paid-vacation']) {
      expect(ids, id).toContain(id);
    }
  });

  it('apply federal thresholds counted across every state, and never make a required policy depend on an answer', () => {
    for (const policy of federal) {
      const when = policy.applies_when;
      if (when?.min_employees !== undefined) expect(when.employees_counted, policy.id).toBe('total');
      if (policy.adoption === 'required') expect(when?.answers, policy.id).toBeUndefined();
    }
    const threshold = (id: string) => catalog.policy(id)?.applies_when?.min_employees;
    expect(threshold('us-equal-employment-opportunity')).toBe(15);
    expect(threshold('us-reasonable-accommodation')).toBe(15);
    expect(threshold('us-family-medical-leave')).toBe(50);
    expect(threshold('us-military-leave')).toBeUndefined();
    expect(threshold('us-lactation-breaks')).toBeUndefined();
  });

  it('say, for every source, what the page states', () => {
    for (const policy of federal) for (const source of policy.sources) expect(source.says, `${policy.id}: ${source.url}`).toBeTruthy();
  });

  it('read completely with the builder\'s default answers, and print in the PDF\'s fonts as written', () => {
    const answers = Object.fromEntries([...catalog.questions.values()].map((q) => [q.id, q.default]));
    answers['hr-contact'] = 'Dana Lee (dana@example.com)';
    for (const policy of federal) {
      const text = fillPolicyText(policy.body, { company: 'Acme LLC', regionName: 'Ohio', answers, questions: catalog.questions });
      expect(text, policy.id).not.toMatch(/____|\{/);
      expect(textBlocks(text).length, policy.id).toBeGreaterThan(0);
      expect(pdfText(text), policy.id).toBe(text.normalize('NFC'));
      expect(pdfText(policy.title), policy.id).toBe(policy.title);
    }
  });

  it('make the Form I-9 policy required (every employer completes Form I-9 for every hire), for every employer and on no answer', () => {
    const policy = catalog.policy('us-employment-eligibility');
    expect(policy?.adoption).toBe('required');
    expect(policy?.applies_when).toBeUndefined();
    expect(policy?.body).toMatch(/third business day/);
    expect(policy?.body).toMatch(/three years after your hire date or one year after your employment ends/);
  });

  it('notes that the FMLA counts employees within 75 miles, and that Montana limits at-will employment', () => {
    expect(catalog.policy('us-family-medical-leave')?.body).toMatch(/50 or more employees within 75 miles/);
    expect(catalog.policy('us-at-will-employment')?.body).toMatch(/Montana/);
  });
});

describe('the shared handbook questions', () => {
  it('are each used by a policy', () => {
    const used = new Set(catalog.policies.flatMap((p) => [...(p.uses ?? []), ...(p.applies_when?.answers ?? []).map((a) => a.question)]));
    const stateQuestion = (id: string) => REGIONS.some((r) => id.startsWith(`${r.code.toLowerCase()}-`));
    const shared = [...catalog.questions.keys()].filter((id) => !stateQuestion(id));
    expect(shared).toContain('hr-contact');
    for (const id of shared) expect(used.has(id), id).toBe(true);
  });
});
