import { describe, expect, it } from 'vitest';
import { fillPolicyText, loadHandbookCatalog } from './handbook.js';
import { regionByCode } from './regions.js';

/**
 * The state policy files of catalog/handbook/policies written for AK through MO (docs/decisions/0043-handbook-state-policies-ak-to-mo.md).
 */
const REGIONS = ['AK', 'AL', 'AR', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'HI', 'IA', 'ID', 'IL', 'IN', 'KS', 'KY', 'LA', 'MA', 'MD', 'ME', 'MI', 'MN', 'MO'];

const catalog = loadHandbookCatalog();
const policiesOf = (region: string) => catalog.byRegion.get(region) ?? [];

describe('the state policies of the handbook catalog, AK to MO', () => {
  it('has a file for every region, each telling employees when their final pay is due', () => {
    for (const region of REGIONS) {
      const finalPay = policiesOf(region).find((p) => p.id === `${region.toLowerCase()}-final-pay`);
      expect(finalPay?.category, region).toBe('separation');
    }
  });

  it('requires paid sick leave where a state mandates it in 2026, and none in Missouri after its 2025 repeal', () => {
    const sickLeave: Record<string, string> = {
      AK: 'ak-paid-sick-leave', AZ: 'az-earned-paid-sick-time', CA: 'ca-paid-sick-leave', CO: 'co-paid-sick-leave',
      CT: 'ct-paid-sick-leave', DC: 'dc-sick-safe-leave', IL: 'il-paid-leave', MA: 'ma-earned-sick-time',
      MD: 'md-sick-safe-leave', ME: 'me-earned-paid-leave', MI: 'mi-earned-sick-time', MN: 'mn-earned-sick-safe-time',
    };
    for (const [region, id] of Object.entries(sickLeave)) {
      const policy = catalog.policy(id);
      expect(policy?.region, id).toBe(region);
      expect(policy?.adoption, id).toBe('required');
      expect(policy?.category, id).toBe('leave');
    }
    expect(policiesOf('MO').filter((p) => /sick/i.test(`${p.id} ${p.title} ${p.summary}`))).toEqual([]);
  });

  it('requires the paid family and medical leave programs that pay benefits in 2026, and describes Maryland\'s as not paying yet', () => {
    for (const id of ['ca-paid-family-leave-disability-insurance', 'co-famli', 'ct-paid-leave-fmla', 'dc-paid-family-leave', 'de-paid-parental-leave', 'ma-paid-family-medical-leave', 'me-paid-family-medical-leave', 'mn-paid-leave']) {
      expect(catalog.policy(id)?.adoption, id).toBe('required');
    }
    const maryland = catalog.policy('md-famli');
    expect(maryland?.adoption).toBe('optional');
    expect(maryland?.body).toMatch(/pays no benefits/);
    expect(maryland?.confidence).toBe('uncertain');
  });

  it('applies size-dependent policies only from the threshold the law sets', () => {
    const thresholds: Record<string, number> = {
      'ca-family-medical-leave': 5, 'ct-pregnancy-accommodation': 3, 'de-sexual-harassment': 4, 'de-paid-parental-leave': 10,
      'de-paid-family-medical-leave': 25, 'hi-family-leave': 100, 'il-pay-transparency': 15, 'ma-sexual-harassment': 6,
      'ma-pay-transparency': 25, 'md-parental-leave': 15, 'mn-pay-transparency': 30, 'la-pregnancy-leave': 26,
    };
    for (const [id, min] of Object.entries(thresholds)) expect(catalog.policy(id)?.applies_when?.min_employees, id).toBe(min);
  });

  it('says what each source states, and reads cleanly once the builder fills the placeholders', () => {
    // An answer to every question, shared or state-specific, as an owner would give it in the builder.
    const answers = Object.fromEntries([...catalog.questions.values()].map((q) => [q.id,
      q.type === 'boolean' ? true : q.type === 'integer' ? (q.min ?? 1) : q.type === 'choice' ? q.choices![0]!.value : 'Dana Reyes (people@example.com)']));
    for (const region of REGIONS) {
      const regionName = regionByCode(region)!.name;
      for (const policy of policiesOf(region)) {
        for (const source of policy.sources) expect(source.says, `${policy.id}: ${source.url}`).toBeTruthy();
        const text = fillPolicyText(policy.body, { company: 'Acme LLC', regionName, answers, questions: catalog.questions });
        expect(text, policy.id).not.toMatch(/[{}]|____/);
      }
    }
  });
});
