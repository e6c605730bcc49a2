import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';

/**
 * Issue 24, family income-tax-return (regions AK–MO): the state corporate, S corporation and partnership returns.
 * Due dates are computed by hand from the rule each requirement cites (catalog/families/income-tax-return/XX.yaml);
 * `~` marks an estimated date (the foreign registration date is not known yet).
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const family = new Set(
  [...catalog.regions.values()].flatMap((r) => r.requirements.filter((d) => d.family === 'income-tax-return').map((d) => d.id)),
);
const returns = (input: EngineInput) =>
  planTasks(catalog, input)
    .filter((t) => t.kind !== 'question' && family.has(t.definitionId))
    .map((t) => `${t.regionCode} ${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`)
    .sort();
const entity = (over: Partial<EngineInput['entity']>): EngineInput['entity'] => ({
  entityType: 'c_corp',
  taxClassification: 'corp',
  incorporationRegion: 'DE',
  incorporationDate: '2020-03-10',
  accountingYearEnd: 12,
  onboardedOn: '2026-11-01',
  ...over,
});
const office = (regionCode: string) => ({ regionCode, hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 });
const staff = (regionCode: string) => ({ regionCode, hasEmployees: true, hasPhysicalLocation: false, employeeCount: 4 });

describe('golden: state income tax returns, AK–MO', () => {
  it('an Illinois LLC taxed as a partnership with a June year end files IL-1065 on the 15th day of the 4th month (October 15)', () => {
    expect(
      returns({
        today,
        tasks: [],
        entity: entity({
          entityType: 'llc',
          taxClassification: 'partnership',
          incorporationRegion: 'IL',
          incorporationDate: '2021-02-01',
          accountingYearEnd: 6,
        }),
        locations: [staff('IL')],
      }),
    ).toEqual([
      // fiscal year ending 2027-06-30 + 4 months, 15th; the one ending 2026-06-30 was due 2026-10-15, before onboarding
      'IL il-1065-partnership-replacement-tax-return 2027-10-15',
    ]);
  });

  it('an Illinois C corporation files IL-1120 (4th month); an S corporation IL-1120-ST (3rd month); neither files IL-1065', () => {
    const base = { today, tasks: [], locations: [office('IL')] };
    expect(returns({ ...base, entity: entity({ incorporationRegion: 'IL' }) })).toEqual([
      'IL il-1120-corporation-income-replacement-tax-return 2027-04-15',
    ]);
    expect(returns({ ...base, entity: entity({ incorporationRegion: 'IL', taxClassification: 's_corp' }) })).toEqual([
      'IL il-1120-st-s-corporation-replacement-tax-return 2027-03-15',
    ]);
  });

  it('a California S corporation files Form 100S by March 15, not Form 100', () => {
    expect(
      returns({
        today,
        tasks: [],
        entity: entity({ taxClassification: 's_corp', incorporationRegion: 'CA' }),
        locations: [staff('CA')],
      }),
    ).toEqual(['CA ca-form-100s-s-corporation-return 2027-03-15']);
  });

  it('California LLCs: a partnership-taxed LLC files Form 568 in the 3rd month, a disregarded one in the 4th; an LP files Form 565', () => {
    const base = { today, tasks: [], locations: [office('CA')] };
    expect(
      returns({ ...base, entity: entity({ entityType: 'llc', taxClassification: 'partnership', incorporationRegion: 'CA' }) }),
    ).toEqual(['CA ca-form-568-llc-return 2027-03-15']);
    expect(
      returns({ ...base, entity: entity({ entityType: 'llc', taxClassification: 'disregarded', incorporationRegion: 'CA' }) }),
    ).toEqual(['CA ca-form-568-single-member-llc-return 2027-04-15']);
    expect(returns({ ...base, entity: entity({ entityType: 'lp', taxClassification: 'partnership', incorporationRegion: 'CA' }) })).toEqual(
      ['CA ca-form-565-partnership-return 2027-03-15'],
    );
  });

  it('a Delaware corporation with a Florida office files F-1120 on the 1st day of the 5th month, and no Delaware income tax return', () => {
    expect(returns({ today, tasks: [], entity: entity({}), locations: [office('FL')] })).toEqual([
      'FL fl-form-f-1120-corporate-income-tax-return 2027-05-01 ~', // foreign registration date not known yet: estimated
    ]);
  });

  it('a Delaware corporation with a Delaware office files Form 1100 by April 15; with no Delaware activity it does not', () => {
    expect(returns({ today, tasks: [], entity: entity({}), locations: [office('DE')] })).toEqual([
      'DE de-form-1100-corporation-income-tax-return 2027-04-15',
    ]);
    expect(returns({ today, tasks: [], entity: entity({}), locations: [] })).toEqual([]);
  });

  it('a disregarded single-member LLC owes no return of its own in Illinois, Florida or Georgia', () => {
    expect(
      returns({
        today,
        tasks: [],
        entity: entity({ entityType: 'llc', taxClassification: 'disregarded', incorporationRegion: 'IL' }),
        locations: [staff('IL'), office('FL'), office('GA')],
      }),
    ).toEqual([]);
  });

  it('due-date rules that are not the 15th day of the 4th month: Iowa (last day), Alabama and Kansas (5th month), Connecticut (1st of the 5th month), Alaska (5th month)', () => {
    const corp = (code: string) => returns({ today, tasks: [], entity: entity({ incorporationRegion: code }), locations: [office(code)] });
    expect(corp('IA')).toEqual(['IA ia-ia-1120-corporation-income-tax-return 2027-04-30']);
    expect(corp('AL')).toEqual(['AL al-form-20c-corporation-income-tax-return 2027-05-15']);
    expect(corp('KS')).toEqual(['KS ks-k-120-corporation-income-tax-return 2027-05-15']);
    expect(corp('CT')).toEqual(['CT ct-form-ct-1120-corporation-business-tax-return 2027-05-01']);
    expect(corp('AK')).toEqual(['AK ak-corporate-income-tax-return 2027-05-15']);
    expect(corp('IN')).toEqual(['IN in-it-20-corporate-income-tax-return 2027-05-15']);
  });

  it('Michigan CIT: only with $350,000 or more of Michigan sales (asked), never for a partnership', () => {
    const mi = (sales: number | null, over: Partial<EngineInput['entity']> = {}) =>
      returns({
        today,
        tasks:
          sales === null
            ? []
            : [
                {
                  kind: 'question',
                  definitionId: 'annual-sales',
                  regionCode: 'MI',
                  status: 'done',
                  completedOn: '2026-11-05',
                  answer: sales,
                },
              ],
        entity: entity({ incorporationRegion: 'MI', ...over }),
        locations: [office('MI')],
      });
    expect(mi(350_000)).toEqual(['MI mi-cit-annual-return 2027-04-30']);
    expect(mi(349_999)).toEqual([]);
    expect(mi(1_000_000, { entityType: 'llc', taxClassification: 'partnership' })).toEqual([]);
  });

  it('DC unincorporated business tax (D-30): only above $12,000 of DC gross income', () => {
    const dc = (sales: number) =>
      returns({
        today,
        tasks: [
          { kind: 'question', definitionId: 'annual-sales', regionCode: 'DC', status: 'done', completedOn: '2026-11-05', answer: sales },
        ],
        entity: entity({ entityType: 'llc', taxClassification: 'partnership', incorporationRegion: 'DC' }),
        locations: [office('DC')],
      });
    expect(dc(12_001)).toEqual(['DC dc-form-d-30-unincorporated-business-franchise-tax 2027-04-15']);
    expect(dc(12_000)).toEqual([]);
  });

  it('Kansas and Connecticut pass-through returns cover S corporations and partnerships alike (3rd month)', () => {
    const pt = (code: string, over: Partial<EngineInput['entity']>) =>
      returns({ today, tasks: [], entity: entity({ incorporationRegion: code, ...over }), locations: [staff(code)] });
    expect(pt('KS', { taxClassification: 's_corp' })).toEqual(['KS ks-k-120s-partnership-s-corporation-return 2027-03-15']);
    expect(pt('CT', { entityType: 'llc', taxClassification: 'partnership' })).toEqual([
      'CT ct-form-ct-1065-ct-1120si-pass-through-return 2027-03-15',
    ]);
  });
});

describe('golden: gaps of the region files the family fills', () => {
  it('a Massachusetts LLC taxed as a C corporation files Form 355 by April 15; a partnership-taxed LLC files Form 3 by March 15', () => {
    const ma = (over: Partial<EngineInput['entity']>) =>
      returns({ today, tasks: [], entity: entity({ entityType: 'llc', incorporationRegion: 'MA', ...over }), locations: [office('MA')] });
    expect(ma({ taxClassification: 'corp' })).toEqual(['MA ma-corporate-excise-llc-taxed-as-corporation 2027-04-15']);
    expect(ma({ taxClassification: 'partnership' })).toEqual(['MA ma-form-3-partnership-return 2027-03-15']);
  });

  it('a Kentucky general partnership files Form PTE (other Kentucky entities file with the LLET task)', () => {
    expect(
      returns({
        today,
        tasks: [],
        entity: entity({ entityType: 'gp', taxClassification: 'partnership', incorporationRegion: 'KY' }),
        locations: [office('KY')],
      }),
    ).toEqual(['KY ky-form-pte-general-partnership-return 2027-04-15']);
  });

  it('a Louisiana S corporation files CIFT-620 (Louisiana taxes S corporations as corporations), by May 15', () => {
    expect(
      returns({ today, tasks: [], entity: entity({ taxClassification: 's_corp', incorporationRegion: 'LA' }), locations: [office('LA')] }),
    ).toEqual(['LA la-cift-620-corporation-income-tax-return 2027-05-15']);
  });
});

describe('golden: Georgia LLCs by tax classification', () => {
  const ga = (taxClassification: EngineInput['entity']['taxClassification']) =>
    returns({
      today,
      tasks: [],
      entity: entity({ entityType: 'llc', taxClassification, incorporationRegion: 'GA' }),
      locations: [staff('GA')],
    });
  it('taxed as a corporation: Form 600 (April 15); as an S corporation: Form 600S (March 15); as a partnership: Form 700 (March 15)', () => {
    expect(ga('corp')).toEqual(['GA ga-form-600-llc-taxed-as-corporation 2027-04-15']);
    expect(ga('s_corp')).toEqual(['GA ga-form-600s-llc-taxed-as-s-corporation 2027-03-15']);
    expect(ga('partnership')).toEqual(['GA ga-form-700-partnership-return 2027-03-15']);
  });
});
