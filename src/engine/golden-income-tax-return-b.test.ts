import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CATALOG_DIR, loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';

/**
 * Golden scenarios for the income-tax-return family, regions MS to WY and New York City
 * (catalog/families/income-tax-return). Dates are computed by hand from the cited rules:
 * - Oregon OR-20: the 15th day of the month after the federal due date, May 15 for a calendar year (ORS / OAR 150-314-0165);
 *   OR-65: the 15th day of the 3rd month (March 15).
 * - New York IT-204: the 15th day of the 3rd month (March 15); NYC-2: April 15 (Admin. Code 11-655); NYC GCT: March 15.
 * - Pennsylvania PA-20S/PA-65: the 15th day of the 4th month, so October 15 for a June year end;
 *   RCT-101: the 15th day of the month after the federal due date (May 15).
 * - Oklahoma 512-S: 30 days after the federal due date (March 15 + 30 days = April 14).
 * `~` marks an estimated date (the foreign registration date is not known yet).
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const lines = (input: EngineInput, region?: string) =>
  planTasks(catalog, input)
    .filter((t) => t.kind === 'requirement' && (!region || t.regionCode === region))
    .map((t) => `${t.regionCode} ${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`)
    .sort();
/** The requirements of this family's files (catalog/families/income-tax-return, regions MS to WY). */
const DIR = path.join(CATALOG_DIR, 'families', 'income-tax-return');
const OWN = new Set(
  fs
    .readdirSync(DIR)
    .flatMap((f) => (parseYaml(fs.readFileSync(path.join(DIR, f), 'utf8')).requirements as { id: string }[]).map((r) => r.id)),
);
const family = (input: EngineInput, region?: string) => lines(input, region).filter((l) => OWN.has(l.split(' ')[1]!));

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
const office = (regionCode: string, hasEmployees = false) => ({
  regionCode,
  hasEmployees,
  hasPhysicalLocation: true,
  employeeCount: hasEmployees ? 3 : 0,
});
const nycAnswer = (yes: boolean) =>
  ({
    kind: 'question',
    definitionId: 'in-locality',
    regionCode: 'NY',
    periodKey: 'ny-new-york-city',
    status: 'done',
    completedOn: '2026-11-20',
    answer: yes,
  }) as const;

describe('golden: income-tax-return (MS–WY, New York City)', () => {
  it('an Oregon C corporation with an office in Oregon files OR-20 by May 15 (and no S corporation or partnership return)', () => {
    const input: EngineInput = { today, tasks: [], entity: entity({ incorporationRegion: 'OR' }), locations: [office('OR')] };
    expect(family(input, 'OR')).toEqual(['OR or-corporation-excise-tax-or20 2027-05-15']);
  });

  it('an Oregon LLC taxed as a partnership (formed in Delaware, office in Oregon) files OR-65 by March 15', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ entityType: 'llc', taxClassification: 'partnership' }),
      locations: [office('OR', true)],
    };
    expect(family(input, 'OR')).toEqual(['OR or-partnership-return-or65 2027-03-15 ~']);
  });

  it('an Oregon S corporation files OR-20-S by April 15', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ taxClassification: 's_corp', incorporationRegion: 'OR' }),
      locations: [office('OR')],
    };
    expect(family(input, 'OR')).toEqual(['OR or-s-corporation-return-or20s 2027-04-15']);
  });

  it('a business with an Oregon location but neither employees nor premises there owes no Oregon return', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({}),
      locations: [{ regionCode: 'OR', hasEmployees: false, hasPhysicalLocation: false, employeeCount: 0 }],
    };
    expect(family(input, 'OR')).toEqual([]);
  });

  it('a New York partnership (LLC) files IT-204 by March 15, besides the IT-204-LL filing fee', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ entityType: 'llc', taxClassification: 'partnership', incorporationRegion: 'NY' }),
      locations: [office('NY')],
    };
    const ny = lines(input, 'NY');
    expect(ny).toContain('NY ny-partnership-return-it204 2027-03-15');
    expect(ny).toContain('NY ny-llc-filing-fee-it204ll 2027-03-15');
    expect(ny.some((l) => l.includes('ny-franchise-tax-ct3'))).toBe(false);
  });

  it('a New York C corporation answering yes to the New York City question files NYC-2 by April 15; no leaves none', () => {
    const base: EngineInput = { today, tasks: [], entity: entity({ incorporationRegion: 'NY' }), locations: [office('NY', true)] };
    const asked = planTasks(catalog, base)
      .filter((t) => t.kind === 'question' && t.definitionId === 'in-locality')
      .map((t) => t.periodKey);
    expect(asked).toContain('ny-new-york-city');
    const yes = lines({ ...base, tasks: [nycAnswer(true)] }, 'NY');
    expect(yes).toContain('NY ny-nyc-business-corporation-tax-nyc2 2027-04-15');
    expect(yes).toContain('NY ny-franchise-tax-ct3 2027-04-15');
    expect(yes.some((l) => l.includes('ny-nyc-general-corporation-tax-s-corp'))).toBe(false);
    const no = lines({ ...base, tasks: [nycAnswer(false)] }, 'NY');
    expect(no.some((l) => l.includes('ny-nyc-'))).toBe(false);
    expect(no).toContain('NY ny-franchise-tax-ct3 2027-04-15');
  });

  it('a New York S corporation in New York City files the general corporation tax return by March 15, not NYC-2', () => {
    const input: EngineInput = {
      today,
      tasks: [nycAnswer(true)],
      entity: entity({ taxClassification: 's_corp', incorporationRegion: 'NY' }),
      locations: [office('NY')],
    };
    const ny = lines(input, 'NY');
    expect(ny).toContain('NY ny-nyc-general-corporation-tax-s-corp 2027-03-15');
    expect(ny.some((l) => l.includes('ny-nyc-business-corporation-tax-nyc2'))).toBe(false);
  });

  it('a New York City partnership gets the existing UBT return and IT-204, not a corporation tax', () => {
    const input: EngineInput = {
      today,
      tasks: [nycAnswer(true)],
      entity: entity({ entityType: 'llc', taxClassification: 'partnership', incorporationRegion: 'NY' }),
      locations: [office('NY')],
    };
    const ny = lines(input, 'NY');
    expect(ny).toContain('NY ny-nyc-unincorporated-business-tax 2027-03-15');
    expect(ny).toContain('NY ny-partnership-return-it204 2027-03-15');
    expect(ny.some((l) => /ny-nyc-(business|general)-corporation/.test(l))).toBe(false);
  });

  it('a Pennsylvania S corporation with a June year end files the PA-20S/PA-65 by October 15, and no RCT-101', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ taxClassification: 's_corp', incorporationRegion: 'PA', accountingYearEnd: 6 }),
      locations: [office('PA', true)],
    };
    expect(family(input, 'PA')).toEqual(['PA pa-s-corporation-partnership-return-pa20s-pa65 2027-10-15']);
  });

  it('a Pennsylvania C corporation files the RCT-101 by May 15', () => {
    const input: EngineInput = { today, tasks: [], entity: entity({ incorporationRegion: 'PA' }), locations: [office('PA')] };
    expect(family(input, 'PA')).toEqual(['PA pa-corporate-net-income-tax-rct101 2027-05-15']);
  });

  it('an Oklahoma S corporation files Form 512-S 30 days after the federal due date (April 14)', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ taxClassification: 's_corp', incorporationRegion: 'OK' }),
      locations: [office('OK')],
    };
    expect(family(input, 'OK')).toEqual(['OK ok-s-corporation-return-512s 2027-04-14']);
  });

  it('an LLC taxed as a corporation files the corporate return (Wisconsin Form 4, April 15)', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ entityType: 'llc', taxClassification: 'corp', incorporationRegion: 'WI' }),
      locations: [office('WI')],
    };
    expect(family(input, 'WI')).toEqual(['WI wi-corporation-franchise-income-tax-return-form4 2027-04-15']);
  });

  it('a New Hampshire single-member LLC files the business profits tax return (NH-1040) by April 15', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ entityType: 'llc', taxClassification: 'disregarded', incorporationRegion: 'NH' }),
      locations: [office('NH')],
    };
    expect(lines(input, 'NH').filter((l) => l.includes('business-profits'))).toEqual([
      'NH nh-business-profits-tax-return-single-member-llc 2027-04-15',
    ]);
  });

  it('a single-member LLC elsewhere owes no pass-through return (Virginia excludes it)', () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: entity({ entityType: 'llc', taxClassification: 'disregarded', incorporationRegion: 'VA' }),
      locations: [office('VA')],
    };
    expect(family(input, 'VA')).toEqual([]);
  });

  it('states without a corporate income tax plan no return (Nevada, Wyoming, South Dakota, Washington)', () => {
    for (const code of ['NV', 'WY', 'SD', 'WA']) {
      const input: EngineInput = { today, tasks: [], entity: entity({ incorporationRegion: code }), locations: [office(code, true)] };
      expect(family(input, code)).toEqual([]);
    }
  });
});
