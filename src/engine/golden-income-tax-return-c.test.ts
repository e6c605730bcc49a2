import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';

/**
 * Issue 24, family income-tax-return, the gaps closed after the first pass:
 * - returns added to the family files: Alabama Form 65 (the federal Form 1065 date, 15th day of the 3rd month), Arkansas
 *   AR1100S (Ark. Code 26-51-806: April 15 / 3 1/2 months), Arizona 120S (R15-2A-103: 15th day of the 3rd month),
 *   Minnesota M8 (the federal Form 1120-S date) and, uncertain, Minnesota M3 (3rd month) and Hawaii N-35 and N-20
 *   (20th day of the 4th month);
 * - corporate returns of the region files widened to LLCs taxed as corporations: NJ CBT-100 (15th day of the 5th month)
 *   and CBT-100S (4th month), NY CT-3 (4th month) and CT-3-S (3rd month), NC CD-405/CD-401S (4th month), RI RI-1120C
 *   (4th month), SC SC1120 (4th month).
 * Massachusetts and Georgia needed no change: their family files already plan Form 355 and Forms 600/600S for LLCs.
 * Dates computed by hand for a December year end unless said; `~` marks an estimated date.
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const REGION_RETURNS = new Set([
  'nj-corporation-business-tax',
  'nj-corporation-business-tax-s-corp',
  'nj-partnership-return',
  'ny-franchise-tax-ct3',
  'ny-franchise-tax-ct3s',
  'ny-llc-filing-fee-it204ll',
  'nc-franchise-tax',
  'ri-business-corporation-tax',
  'ri-s-corporation-minimum-tax',
  'ri-annual-charge-partnership-llc',
  'ri-annual-charge-single-member-llc',
  'sc-annual-report-corporation',
  'sc-annual-report-s-corporation',
  'ma-corporate-excise',
  'ma-corporate-excise-s-corporation',
  'ga-net-worth-tax',
  'ga-net-worth-tax-s-corporation',
]);
const tracked = new Set([
  ...[...catalog.regions.values()].flatMap((r) => r.requirements.filter((d) => d.family === 'income-tax-return').map((d) => d.id)),
  ...REGION_RETURNS,
]);
const returns = (input: EngineInput) =>
  planTasks(catalog, input)
    .filter((t) => t.kind !== 'question' && tracked.has(t.definitionId))
    .map((t) => `${t.regionCode} ${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`)
    .sort();
type Entity = EngineInput['entity'];
const entity = (over: Partial<Entity>): Entity => ({
  entityType: 'c_corp',
  taxClassification: 'corp',
  incorporationRegion: 'DE',
  incorporationDate: '2020-03-10',
  accountingYearEnd: 12,
  onboardedOn: '2026-11-01',
  ...over,
});
const office = (regionCode: string) => ({ regionCode, hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 });
/** A business formed in `code` with an office there. */
const home = (code: string, over: Partial<Entity>) =>
  returns({ today, tasks: [], entity: entity({ incorporationRegion: code, ...over }), locations: [office(code)] });

describe('golden: returns added to the family files', () => {
  it('Alabama Form 65: partnerships and LLCs taxed as partnerships, on the federal Form 1065 date (15th day of the 3rd month)', () => {
    expect(home('AL', { entityType: 'lp', taxClassification: 'partnership' })).toEqual(['AL al-form-65-partnership-return 2027-03-15']);
    expect(home('AL', { entityType: 'llc', taxClassification: 'partnership' })).toEqual(['AL al-form-65-partnership-return 2027-03-15']);
    // June year end: the year ending 2026-06-30 was due 2026-09-15, before onboarding; the next ends 2027-06-30 + 3 months
    expect(home('AL', { entityType: 'llc', taxClassification: 'partnership', accountingYearEnd: 6 })).toEqual([
      'AL al-form-65-partnership-return 2027-09-15',
    ]);
  });

  it('Alabama Form 65 is not planned for an LLC taxed as a corporation (Form 20C), a disregarded LLC, or without Alabama activity', () => {
    expect(home('AL', { entityType: 'llc', taxClassification: 'corp' })).toEqual([
      'AL al-form-20c-corporation-income-tax-return 2027-05-15',
    ]);
    expect(home('AL', { entityType: 'llc', taxClassification: 'disregarded' })).toEqual([]);
    expect(
      returns({
        today,
        tasks: [],
        entity: entity({ entityType: 'lp', taxClassification: 'partnership', incorporationRegion: 'AL' }),
        locations: [],
      }),
    ).toEqual([]);
  });

  it('Arkansas: an S corporation files AR1100S by April 15 (Ark. Code 26-51-806); a C corporation files AR1100CT only', () => {
    expect(home('AR', { taxClassification: 's_corp' })).toEqual(['AR ar-form-ar1100s-s-corporation-return 2027-04-15']);
    expect(home('AR', {})).toEqual(['AR ar-corporation-income-tax-return 2027-04-15']);
  });

  it('Arizona: S corporations and LLCs taxed as S corporations file Form 120S by March 15; a C corporation files Form 120 by April 15', () => {
    expect(home('AZ', { taxClassification: 's_corp' })).toEqual(['AZ az-form-120s-s-corporation-return 2027-03-15']);
    expect(home('AZ', { entityType: 'llc', taxClassification: 's_corp' })).toEqual(['AZ az-form-120s-s-corporation-return 2027-03-15']);
    expect(home('AZ', {})).toEqual(['AZ az-form-120-corporation-income-tax-return 2027-04-15']);
  });

  it('Hawaii (uncertain dates): N-35 for an S corporation and N-20 for a partnership-taxed LLC, both April 20; a C corporation files N-30 only', () => {
    expect(home('HI', { taxClassification: 's_corp' })).toEqual(['HI hi-form-n-35-s-corporation-return 2027-04-20']);
    expect(home('HI', { entityType: 'llc', taxClassification: 'partnership' })).toEqual(['HI hi-form-n-20-partnership-return 2027-04-20']);
    expect(home('HI', {})).toEqual(['HI hi-form-n-30-corporation-income-tax-return 2027-04-20']);
  });

  it('Minnesota: M8 for an S corporation (March 15), M3 for partnerships and partnership-taxed LLCs (March 15, uncertain), M4 for a C corporation', () => {
    expect(home('MN', { taxClassification: 's_corp' })).toEqual(['MN mn-form-m8-s-corporation-return 2027-03-15']);
    expect(home('MN', { entityType: 'gp', taxClassification: 'partnership' })).toEqual(['MN mn-form-m3-partnership-return 2027-03-15']);
    expect(home('MN', { entityType: 'llc', taxClassification: 'partnership' })).toEqual(['MN mn-form-m3-partnership-return 2027-03-15']);
    expect(home('MN', {})).toEqual(['MN mn-form-m4-corporation-franchise-tax-return 2027-04-15']);
  });

  it('a Delaware partnership with an Alabama office files Form 65 (estimated: its Alabama registration date is not known yet)', () => {
    expect(
      returns({ today, tasks: [], entity: entity({ entityType: 'lp', taxClassification: 'partnership' }), locations: [office('AL')] }),
    ).toEqual(['AL al-form-65-partnership-return 2027-03-15 ~']);
  });
});

describe('golden: corporate returns of the region files, for LLCs taxed as corporations', () => {
  it('New Jersey: an LLC or PLLC taxed as a corporation files CBT-100 (May 15), as an S corporation CBT-100S (April 15); a partnership-taxed LLC files NJ-1065, not CBT-100', () => {
    expect(home('NJ', { entityType: 'llc', taxClassification: 'corp' })).toEqual(['NJ nj-corporation-business-tax 2027-05-15']);
    expect(home('NJ', { entityType: 'pllc', taxClassification: 'corp' })).toEqual(['NJ nj-corporation-business-tax 2027-05-15']);
    expect(home('NJ', { entityType: 'llc', taxClassification: 's_corp' })).toEqual(['NJ nj-corporation-business-tax-s-corp 2027-04-15']);
    expect(home('NJ', { entityType: 'llc', taxClassification: 'partnership' })).toEqual(['NJ nj-partnership-return 2027-04-15']);
    expect(home('NJ', { entityType: 'llc', taxClassification: 'disregarded' })).toEqual([]);
  });

  it('New Jersey: a Delaware LLC taxed as a corporation with a New Jersey office files CBT-100 (estimated until its registration date is known)', () => {
    expect(returns({ today, tasks: [], entity: entity({ entityType: 'llc' }), locations: [office('NJ')] })).toEqual([
      'NJ nj-corporation-business-tax 2027-05-15 ~',
    ]);
  });

  it('New York: an LLC taxed as a corporation files CT-3 (April 15; October 15 for a June year end), as an S corporation CT-3-S (March 15); a partnership-taxed LLC files IT-204 and IT-204-LL only', () => {
    expect(home('NY', { entityType: 'llc', taxClassification: 'corp' })).toEqual(['NY ny-franchise-tax-ct3 2027-04-15']);
    expect(home('NY', { entityType: 'llc', taxClassification: 'corp', accountingYearEnd: 6 })).toEqual([
      'NY ny-franchise-tax-ct3 2027-10-15',
    ]);
    expect(home('NY', { entityType: 'llc', taxClassification: 's_corp' })).toEqual(['NY ny-franchise-tax-ct3s 2027-03-15']);
    expect(home('NY', { entityType: 'llc', taxClassification: 'partnership' })).toEqual([
      'NY ny-llc-filing-fee-it204ll 2027-03-15',
      'NY ny-partnership-return-it204 2027-03-15',
    ]);
  });

  it('North Carolina: an LLC taxed as a C or S corporation files the corporate income and franchise tax return (April 15); a partnership-taxed LLC files D-403 only', () => {
    expect(home('NC', { entityType: 'llc', taxClassification: 'corp' })).toEqual(['NC nc-franchise-tax 2027-04-15']);
    expect(home('NC', { entityType: 'llc', taxClassification: 's_corp' })).toEqual(['NC nc-franchise-tax 2027-04-15']);
    expect(home('NC', { entityType: 'llc', taxClassification: 'partnership' })).toEqual(['NC nc-partnership-return-d403 2027-04-15']);
  });

  it('Rhode Island: an LLC taxed as a C corporation files RI-1120C (April 15), not the RI-1065 annual charge a partnership-taxed LLC pays (March 15)', () => {
    expect(home('RI', { entityType: 'llc', taxClassification: 'corp' })).toEqual(['RI ri-business-corporation-tax 2027-04-15']);
    expect(home('RI', { entityType: 'llc', taxClassification: 'partnership' })).toEqual(['RI ri-annual-charge-partnership-llc 2027-03-15']);
  });

  it('South Carolina: an LLC taxed as a corporation files SC1120 with the annual report (April 15); as an S corporation SC1120S (March 15); as a partnership SC1065', () => {
    expect(home('SC', { entityType: 'llc', taxClassification: 'corp' })).toEqual(['SC sc-annual-report-corporation 2027-04-15']);
    expect(home('SC', { entityType: 'llc', taxClassification: 's_corp' })).toEqual(['SC sc-annual-report-s-corporation 2027-03-15']);
    expect(home('SC', { entityType: 'llc', taxClassification: 'partnership' })).toEqual(['SC sc-partnership-return-sc1065 2027-03-15']);
  });

  it('South Carolina CL-1 (the initial report): an LLC taxed as a corporation files it too (SCDOR), one taxed as a partnership does not', () => {
    const cl1 = (over: Partial<Entity>) =>
      planTasks(catalog, { today, tasks: [], entity: entity({ incorporationRegion: 'SC', ...over }), locations: [office('SC')] })
        .filter((t) => t.definitionId === 'sc-initial-annual-report')
        .map((t) => t.regionCode);
    expect(cl1({ entityType: 'llc', taxClassification: 'corp' })).toEqual(['SC']);
    expect(cl1({ entityType: 'llc', taxClassification: 's_corp' })).toEqual(['SC']);
    expect(cl1({ entityType: 'llc', taxClassification: 'partnership' })).toEqual([]);
    expect(cl1({})).toEqual(['SC']);
  });

  it('corporations still get the same returns as before', () => {
    expect(home('NJ', {})).toEqual(['NJ nj-corporation-business-tax 2027-05-15']);
    expect(home('NY', {})).toEqual(['NY ny-franchise-tax-ct3 2027-04-15']);
    expect(home('NC', { taxClassification: 's_corp' })).toEqual(['NC nc-franchise-tax 2027-04-15']);
    expect(home('RI', {})).toEqual(['RI ri-business-corporation-tax 2027-04-15']);
    expect(home('SC', {})).toEqual(['SC sc-annual-report-corporation 2027-04-15']);
  });
});

describe('golden: Massachusetts and Georgia, where the family file (not the region file) plans the LLC returns', () => {
  it('Massachusetts: an LLC taxed as a C corporation gets Form 355 once (family file), an LLC taxed as an S corporation the S corporation excise (region file)', () => {
    expect(home('MA', { entityType: 'llc', taxClassification: 'corp' })).toEqual([
      'MA ma-corporate-excise-llc-taxed-as-corporation 2027-04-15',
    ]);
    expect(home('MA', { entityType: 'llc', taxClassification: 's_corp' })).toEqual(['MA ma-corporate-excise-s-corporation 2027-03-15']);
    expect(home('MA', {})).toEqual(['MA ma-corporate-excise 2027-04-15']);
  });

  it("Georgia: an LLC taxed as a C or S corporation gets Form 600 / 600S once (family file), never the corporations' net worth tasks as well", () => {
    expect(home('GA', { entityType: 'llc', taxClassification: 'corp' })).toEqual(['GA ga-form-600-llc-taxed-as-corporation 2027-04-15']);
    expect(home('GA', { entityType: 'llc', taxClassification: 's_corp' })).toEqual([
      'GA ga-form-600s-llc-taxed-as-s-corporation 2027-03-15',
    ]);
    expect(home('GA', {})).toEqual(['GA ga-net-worth-tax 2027-04-15']);
  });
});
