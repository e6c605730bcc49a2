import { describe, expect, it } from 'vitest';
import { loadHandbookCatalog } from './handbook.js';

/** The second half of the state policy files: MS to WY (hb-states-2). */
const REGIONS = ['MS', 'MT', 'NC', 'ND', 'NE', 'NH', 'NJ', 'NM', 'NV', 'NY', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VA', 'VT', 'WA', 'WI', 'WV', 'WY'];
/** States in this half with a paid sick leave law in force in 2026, and the policy that states it. */
const SICK_LEAVE = { NE: 'ne-paid-sick-time', NJ: 'nj-earned-sick-leave', NM: 'nm-paid-sick-leave', NV: 'nv-paid-leave', NY: 'ny-paid-sick-leave', OR: 'or-sick-time', RI: 'ri-paid-sick-and-safe-leave', VT: 'vt-earned-sick-time', WA: 'wa-paid-sick-leave' };
/** State paid family and medical leave programs paying benefits in 2026. */
const PAID_FAMILY_LEAVE = { NJ: 'nj-family-leave-insurance', NY: 'ny-paid-family-leave', OR: 'or-paid-leave-oregon', RI: 'ri-temporary-caregiver-insurance', WA: 'wa-paid-family-medical-leave' };

const catalog = loadHandbookCatalog();

describe('state policies, Mississippi to Wyoming', () => {
  it('has a file for every region, each saying when the last paycheck is due', () => {
    for (const code of REGIONS) {
      const policies = catalog.byRegion.get(code) ?? [];
      expect(policies.length, code).toBeGreaterThan(0);
      expect(policies.some((p) => p.category === 'separation' && /final/i.test(p.title)), `${code} final pay`).toBe(true);
    }
  });

  it('states each paid sick leave law and paid family leave program as a required leave policy of its state', () => {
    for (const [code, id] of Object.entries({ ...SICK_LEAVE, ...PAID_FAMILY_LEAVE })) {
      const policy = catalog.policy(id);
      expect(policy?.region, id).toBe(code);
      expect(policy?.adoption, id).toBe('required');
      expect(policy?.category, id).toBe('leave');
    }
  });

  it('encodes the employer-size thresholds the laws set', () => {
    expect(catalog.policy('ne-paid-sick-time')?.applies_when?.min_employees).toBe(11);
    expect(catalog.policy('nv-paid-leave')?.applies_when?.min_employees).toBe(50);
    expect(catalog.policy('nj-family-leave-act')?.applies_when).toEqual({ min_employees: 15, employees_counted: 'total' });
    expect(catalog.policy('wi-family-medical-leave')?.applies_when?.min_employees).toBe(50);
    expect(catalog.policy('ny-paid-sick-leave')?.applies_when).toBeUndefined();
  });

  it('cites a page for every policy and says what it states; uncertain policies say what is unconfirmed', () => {
    for (const code of REGIONS) {
      for (const policy of catalog.byRegion.get(code) ?? []) {
        expect(policy.sources.every((s) => s.says && new URL(s.url).pathname.length > 1), policy.id).toBe(true);
        if (policy.confidence === 'uncertain') expect(policy.notes, policy.id).toMatch(/\w{3,}/);
      }
    }
  });

  it('asks New York employers about electronic monitoring only through a question of its own', () => {
    expect(catalog.questions.get('ny-electronic-monitoring')?.type).toBe('boolean');
    expect(catalog.policy('ny-electronic-monitoring')?.applies_when?.answers).toEqual([{ question: 'ny-electronic-monitoring', equals: true }]);
  });
});
