import { describe, expect, it } from 'vitest';
import type { RequirementDefinition } from '../catalog/catalog.schema.js';
import type { Schedule } from '../catalog/schedule.schema.js';
import { evidenceProblems, isHomePage, proseDateProblems, statedDueDates } from './catalog-consistency.js';

const requirement = (over: Partial<RequirementDefinition>): RequirementDefinition => ({
  id: 'xx-report',
  family: 'annual-report',
  title: 'File the annual report',
  summary: 'Corporations file an annual report.',
  description: 'Corporations file an annual report.',
  category: 'registration-maintenance',
  tags: ['sos-report'],
  priority: 'high',
  agency: 'xx-sos',
  resources: [{ title: 'Annual reports', url: 'https://sos.example.gov/annual-reports' }],
  fee: { type: 'fixed', amount: '25.00' },
  applies_when: {},
  schedule: { every: '1y', due: { rule: 'fixed', month: 5, day: 15 } },
  resolutions: { manual: [{ title: 'File', description: 'File it.' }] },
  sources: ['https://sos.example.gov/annual-reports'],
  confidence: 'confirmed',
  verification: [{ url: 'https://sos.example.gov/annual-reports', verified_on: '2026-11-24', says: 'Annual reports are due May 15.' }],
  ...over,
});

describe('catalog consistency', () => {
  it('a home page is a site root or its index page; anything with a path or query is not', () => {
    expect(
      ['https://www.newarknj.gov', 'https://www.irs.gov/', 'https://sos.example.gov/index.html', 'https://x.gov/Default.aspx'].map(
        isHomePage,
      ),
    ).toEqual([true, true, true, true]);
    expect(['https://www.irs.gov/forms-pubs/about-form-940', 'https://x.gov/?page=tax'].map(isHomePage)).toEqual([false, false]);
  });

  it('evidence: a deep source, notes for uncertain, a verification for confirmed', () => {
    expect(evidenceProblems(requirement({}))).toEqual([]);
    expect(evidenceProblems(requirement({ sources: ['https://sos.example.gov/'] }))).toEqual([
      'cites only home pages: add the page that states the rule to sources',
    ]);
    expect(evidenceProblems(requirement({ confidence: 'uncertain' }))).toEqual([
      'is uncertain without notes saying what could not be confirmed',
    ]);
    const { verification: _omitted, ...unverified } = requirement({});
    expect(evidenceProblems(unverified)).toEqual(['is confirmed without a verification entry (url, verified_on, says)']);
  });

  it('reads a due date only right after a due word, and skips sentences about other deadlines', () => {
    const yearly: Schedule = { every: '1y', due: { rule: 'fixed', month: 5, day: 15 } };
    expect(
      statedDueDates('Reports are due May 15 each year. Every entity in existence on January 1 files.', yearly).map((s) => s.text),
    ).toEqual(['May 15']);
    expect(statedDueDates('File by March 1st. An extension moves it to November 15.', yearly).map((s) => s.text)).toEqual(['March 1st']);
    expect(statedDueDates('Quarterly returns are due April 30.', yearly)).toEqual([]);
    expect(statedDueDates('The report is due by the 15th day of the fourth month after the end of the fiscal year.', yearly)).toEqual([
      { kind: 'after-year-end', text: expect.any(String), day: 15, offsetMonths: 4 },
    ]);
    expect(statedDueDates('Register within 20 days of hiring.', yearly)).toEqual([{ kind: 'within', text: 'within 20 days', days: 20 }]);
    expect(statedDueDates('File during the quarter (for example by June 30 for one registered in May).', yearly)).toEqual([]);
  });

  it('prose must state the date the schedule computes', () => {
    expect(proseDateProblems(requirement({ summary: 'Corporations file by May 15 every year.' }))).toEqual([]);
    expect(proseDateProblems(requirement({ summary: 'Corporations file by April 15 every year.' }))[0]).toMatch(
      /says "April 15" but the schedule computes 05-15/,
    );
    const fiscal = { every: '1y', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } } as const;
    expect(
      proseDateProblems(
        requirement({
          schedule: fiscal,
          summary: 'Due by the 15th day of the fourth month after the fiscal year ends (April 15 for calendar years).',
        }),
      ),
    ).toEqual([]);
    expect(
      proseDateProblems(
        requirement({ schedule: fiscal, summary: 'Due by the 15th day of the third month after the fiscal year ends.' }),
      )[0],
    ).toMatch(/month 4 after the fiscal year end/);
    const within = { every: 'once', due: { rule: 'within_days', of: 'operations_start_date', days: 30 } } as const;
    expect(proseDateProblems(requirement({ schedule: within, summary: 'Register within 10 days of hiring.' }))[0]).toMatch(
      /within 30 days/,
    );
    const anniversary = { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'last' } } as const;
    expect(proseDateProblems(requirement({ schedule: anniversary, summary: 'File by the end of the anniversary month.' }))).toEqual([]);
    expect(proseDateProblems(requirement({ schedule: anniversary, summary: 'File by June 30.' }))[0]).toMatch(
      /counted from the registration anniversary/,
    );
  });

  it('"the Nth day of the Mth month after registration" is a months_after rule, counting the month of the date as the first', () => {
    const firstYear: Schedule = { every: 'once', due: { rule: 'months_after', of: 'registration_date', offset_months: 3, day: 15 } };
    const yearly: Schedule = { every: '1y', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } };
    // Matches: the 4th month is offset 3, whichever word names the date.
    for (const words of ['registration', 'incorporation or qualification', 'qualification', 'formation']) {
      expect(
        proseDateProblems(
          requirement({ schedule: firstYear, summary: `The first year's tax is due the 15th day of the fourth month after ${words}.` }),
        ),
      ).toEqual([]);
    }
    expect(
      proseDateProblems(requirement({ schedule: firstYear, summary: 'It is due by the 15th day of the 4th month after registration.' })),
    ).toEqual([]);
    // A different month or day is flagged.
    expect(
      proseDateProblems(
        requirement({ schedule: firstYear, summary: 'It is due by the 15th day of the 3rd month after incorporation.' }),
      )[0],
    ).toMatch(/says "the 15th day of the 3rd month after incorporation" but the schedule is day 15 of month 3 after the month of the date/);
    expect(
      proseDateProblems(requirement({ schedule: firstYear, summary: 'It is due by the last day of the fourth month after registration.' })),
    ).toHaveLength(1);
    // A yearly schedule stating a first-period deadline is flagged, even in a sentence about paying and without a due word.
    expect(
      proseDateProblems(
        requirement({
          schedule: yearly,
          description: 'The tax is paid with Form 3522; in the first year it is due by the 15th day of the 4th month after registration.',
        }),
      )[0],
    ).toMatch(/says "the 15th day of the 4th month after registration" but the schedule has no months_after rule/);
    expect(
      proseDateProblems(
        requirement({
          schedule: yearly,
          description:
            'An initial return covers its first period, which falls on the 15th day of the fourth month after incorporation or qualification.',
        }),
      )[0],
    ).toMatch(/no months_after rule/);
    // The fiscal-year phrase stays a fiscal-year rule; an extension sentence is skipped.
    expect(
      proseDateProblems(requirement({ schedule: yearly, summary: 'Due by the 15th day of the fourth month after the fiscal year ends.' })),
    ).toEqual([]);
    expect(
      proseDateProblems(
        requirement({ schedule: yearly, description: 'An extension runs to the 15th day of the tenth month after registration.' }),
      ),
    ).toEqual([]);
  });
});
