import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks, type EngineInput, type LocationInput, type TaskState } from './engine.js';

/**
 * Golden scenarios for the local business taxes of issue 24 (catalog/families/local-business-tax/): a business that
 * answers yes to a city's or county's question gets its licence or return with the ordinance's dates, one that answers
 * no gets nothing, and a business without employees or premises in the state is not asked about the city at all.
 * Dates are computed by hand from the rule each requirement cites.
 */
const catalog = loadCatalog();
const today = '2026-11-22';

const location = (regionCode: string, over: Partial<LocationInput> = {}): LocationInput => ({
  regionCode,
  hasEmployees: true,
  hasPhysicalLocation: true,
  employeeCount: 4,
  ...over,
});
const locality = (regionCode: string, id: string, yes: boolean): TaskState => ({
  kind: 'question',
  definitionId: 'in-locality',
  regionCode,
  periodKey: id,
  status: 'done',
  completedOn: '2026-11-10',
  answer: yes,
});
const answer = (definitionId: string, regionCode: string, value: unknown): TaskState => ({
  kind: 'question',
  definitionId,
  regionCode,
  status: 'done',
  completedOn: '2026-11-10',
  answer: value,
});

/** The state's foreign registration date, answered, so that the yearly dates are exact rather than estimated. */
const registered = (regionCode: string): TaskState => answer('registration-date', regionCode, '2022-03-01');

const input = (entity: Partial<EngineInput['entity']>, locations: LocationInput[], tasks: TaskState[] = []): EngineInput => ({
  today,
  tasks,
  entity: {
    entityType: 'llc',
    taxClassification: 'partnership',
    incorporationRegion: 'DE',
    incorporationDate: '2021-05-20',
    accountingYearEnd: 12,
    onboardedOn: '2026-11-01',
    ...entity,
  },
  locations,
});

/** California's city questions, all answered no except those named. */
const california = (yes: string[]) =>
  ['ca-los-angeles', 'ca-long-beach', 'ca-oakland', 'ca-sacramento', 'ca-san-diego', 'ca-san-francisco', 'ca-san-jose'].map((id) =>
    locality('CA', id, yes.includes(id)),
  );
const CA_ASKED = [
  '?ca-long-beach',
  '?ca-los-angeles',
  '?ca-oakland',
  '?ca-sacramento',
  '?ca-san-diego',
  '?ca-san-francisco',
  '?ca-san-jose',
];
const CA_CITIES = ['ca-los-angeles', 'ca-long-beach', 'ca-oakland', 'ca-sacramento', 'ca-san-diego', 'ca-san-jose'];

/** The region's local tasks (`ids` starting with the prefix) and locality questions, as `id due` lines. */
const local = (tasks: ReturnType<typeof planTasks>, region: string, prefixes: string[]) =>
  tasks
    .filter(
      (t) =>
        t.regionCode === region &&
        (t.kind === 'question' ? t.definitionId === 'in-locality' : prefixes.some((p) => t.definitionId.startsWith(p))),
    )
    .map((t) =>
      t.kind === 'question' ? `?${t.periodKey}` : `${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`,
    )
    .sort();

describe('golden: local business taxes (issue 24)', () => {
  it('Florida: a Miami office gets the county and city receipts and their September 30 renewals; the other counties and cities, answered no, give nothing', () => {
    const florida = (answers: TaskState[]) =>
      local(planTasks(catalog, input({ incorporationRegion: 'FL', incorporationDate: '2023-06-20' }, [location('FL')], answers)), 'FL', [
        'fl-',
      ]);
    const elsewhere = ['fl-orange-county', 'fl-orlando', 'fl-duval', 'fl-hillsborough', 'fl-tampa'].map((id) => locality('FL', id, false));
    // Before any answer: one question per county or city, nothing planned.
    const asked = ['?fl-duval', '?fl-hillsborough', '?fl-miami', '?fl-miami-dade', '?fl-orange-county', '?fl-orlando', '?fl-tampa'];
    expect(florida([]).filter((l) => l.startsWith('?'))).toEqual(asked);
    expect(
      florida([locality('FL', 'fl-miami-dade', true), locality('FL', 'fl-miami', true), ...elsewhere]).filter(
        (l) => l.startsWith('?') || /fl-(miami|orange|orlando|duval|hillsborough|tampa)/.test(l),
      ),
    ).toEqual([
      ...asked,
      'fl-miami-business-tax-receipt -', // before operating: no date
      'fl-miami-business-tax-receipt-renewal 2027-09-30', // F.S. 205.053: on or before September 30 (2026's is before onboarding)
      'fl-miami-dade-local-business-tax-receipt -',
      'fl-miami-dade-local-business-tax-renewal 2027-09-30',
    ]);
  });

  it('Florida: remote employees without premises are asked about the City of Miami only (the county receipt is per place of business)', () => {
    const tasks = planTasks(
      catalog,
      input(
        { incorporationRegion: 'FL', incorporationDate: '2023-06-20' },
        [location('FL', { hasPhysicalLocation: false })],
        [locality('FL', 'fl-miami', false)],
      ),
    );
    expect(local(tasks, 'FL', ['fl-miami', 'fl-orange', 'fl-orlando', 'fl-duval', 'fl-hillsborough', 'fl-tampa'])).toEqual(['?fl-miami']);
  });

  it('Jacksonville, Hillsborough County and Tampa: receipts before operating, renewed by September 30', () => {
    const tasks = planTasks(
      catalog,
      input(
        { incorporationRegion: 'FL', incorporationDate: '2023-06-20' },
        [location('FL')],
        [
          ...['fl-miami-dade', 'fl-miami', 'fl-orange-county', 'fl-orlando'].map((id) => locality('FL', id, false)),
          locality('FL', 'fl-duval', true),
          locality('FL', 'fl-hillsborough', true),
          locality('FL', 'fl-tampa', true),
        ],
      ),
    );
    expect(local(tasks, 'FL', ['fl-duval', 'fl-hillsborough', 'fl-tampa']).filter((l) => !l.startsWith('?'))).toEqual([
      'fl-duval-local-business-tax-receipt -',
      'fl-duval-local-business-tax-renewal 2027-09-30',
      'fl-hillsborough-business-tax-receipt -',
      'fl-hillsborough-business-tax-renewal 2027-09-30',
      'fl-tampa-business-tax-receipt -',
      'fl-tampa-business-tax-renewal 2027-09-30',
    ]);
  });

  it('Birmingham and Las Vegas: a licence before starting; Birmingham renewals by February 15', () => {
    const bham = planTasks(catalog, input({}, [location('AL')], [registered('AL'), locality('AL', 'al-birmingham', true)]));
    expect(local(bham, 'AL', ['al-birmingham-business'])).toEqual([
      '?al-birmingham',
      'al-birmingham-business-license -',
      'al-birmingham-business-license-renewal 2027-02-15',
    ]);
    const vegas = planTasks(
      catalog,
      input({}, [location('NV')], [locality('NV', 'nv-las-vegas', true), locality('NV', 'nv-clark-county-unincorporated', false)]),
    );
    expect(local(vegas, 'NV', ['nv-las-vegas', 'nv-clark-county-business'])).toEqual([
      '?nv-clark-county-unincorporated',
      '?nv-las-vegas',
      'nv-las-vegas-business-license -',
    ]);
  });

  it('Atlanta: registration within 30 days of starting, the renewal application by February 15; a no plans nothing', () => {
    const started = answer('operations-start-date', 'GA', '2026-11-10');
    const yes = local(
      planTasks(catalog, input({}, [location('GA')], [registered('GA'), started, locality('GA', 'ga-atlanta', true)])),
      'GA',
      ['ga-atlanta'],
    );
    expect(yes).toEqual(['?ga-atlanta', 'ga-atlanta-business-tax-registration 2026-12-10', 'ga-atlanta-business-tax-renewal 2027-02-15']);
    const no = local(
      planTasks(catalog, input({}, [location('GA')], [registered('GA'), started, locality('GA', 'ga-atlanta', false)])),
      'GA',
      ['ga-atlanta'],
    );
    expect(no).toEqual(['?ga-atlanta']);
  });

  it('a state of incorporation without employees or premises is not asked about its cities', () => {
    // A Georgia corporation operating only in Texas: no Atlanta question, no Atlanta task.
    const tasks = planTasks(
      catalog,
      input({ entityType: 'c_corp', taxClassification: 'corp', incorporationRegion: 'GA', incorporationDate: '2020-01-15' }, [
        location('TX'),
      ]),
    );
    expect(local(tasks, 'GA', ['ga-atlanta'])).toEqual([]);
    // Nor is an Ohio corporation operating only in Texas asked about Columbus, Cleveland or Cincinnati.
    const ohio = planTasks(
      catalog,
      input({ entityType: 'c_corp', taxClassification: 'corp', incorporationRegion: 'OH', incorporationDate: '2020-01-15' }, [
        location('TX'),
      ]),
    );
    expect(local(ohio, 'OH', ['oh-columbus', 'oh-cleveland', 'oh-cincinnati'])).toEqual([]);
    // Nor a Washington or Kentucky corporation about Seattle, Louisville or Lexington (their licences and returns
    // need employees or premises in the state, like every local tax here).
    for (const code of ['WA', 'KY']) {
      const home = planTasks(
        catalog,
        input({ entityType: 'c_corp', taxClassification: 'corp', incorporationRegion: code, incorporationDate: '2020-01-15' }, [
          location('TX'),
        ]),
      );
      expect(local(home, code, ['wa-seattle', 'ky-louisville', 'ky-lexington'])).toEqual([]);
    }
  });

  it('Chicago: a licence for a business location; employees without premises are not asked', () => {
    const office = local(planTasks(catalog, input({}, [location('IL')], [locality('IL', 'il-chicago', true)])), 'IL', ['il-chicago']);
    expect(office).toEqual(['?il-chicago', 'il-chicago-business-license -']);
    const remote = local(planTasks(catalog, input({}, [location('IL', { hasPhysicalLocation: false })])), 'IL', ['il-chicago']);
    expect(remote).toEqual([]);
  });

  it('Los Angeles: the yearly renewal is due on the last day of February, beside the registration certificate', () => {
    const tasks = planTasks(catalog, input({}, [location('CA')], [registered('CA'), ...california(['ca-los-angeles'])]));
    expect(local(tasks, 'CA', CA_CITIES)).toEqual([
      ...CA_ASKED,
      'ca-los-angeles-business-tax-registration -',
      'ca-los-angeles-business-tax-renewal 2027-02-28',
    ]);
  });

  it('San Diego and San José: registered within 15 and 90 days of starting business', () => {
    const tasks = planTasks(
      catalog,
      input({}, [location('CA')], [answer('operations-start-date', 'CA', '2026-11-10'), ...california(['ca-san-diego', 'ca-san-jose'])]),
    );
    expect(local(tasks, 'CA', CA_CITIES)).toEqual([
      ...CA_ASKED,
      'ca-san-diego-business-tax-certificate 2026-11-25',
      'ca-san-jose-business-tax-certificate 2027-02-08',
    ]);
  });

  it('Oakland within 30 days and by March 1; Sacramento and Long Beach: the certificate or licence, renewed on their own bills', () => {
    const tasks = planTasks(
      catalog,
      input(
        {},
        [location('CA')],
        [
          registered('CA'),
          answer('operations-start-date', 'CA', '2026-11-10'),
          ...california(['ca-oakland', 'ca-sacramento', 'ca-long-beach']),
        ],
      ),
    );
    expect(local(tasks, 'CA', CA_CITIES)).toEqual([
      ...CA_ASKED,
      'ca-long-beach-business-license -',
      'ca-oakland-business-tax-registration 2026-12-10',
      'ca-oakland-business-tax-renewal 2027-03-01',
      'ca-sacramento-business-operations-tax -',
    ]);
  });

  it('Columbus: the net profit return for an S corporation with a June year end; a single-member LLC (disregarded) is not asked', () => {
    const sCorp = planTasks(
      catalog,
      input(
        { taxClassification: 's_corp', accountingYearEnd: 6 },
        [location('OH')],
        [
          registered('OH'),
          locality('OH', 'oh-columbus', true),
          locality('OH', 'oh-cleveland', false),
          locality('OH', 'oh-cincinnati', false),
        ],
      ),
    );
    // The fiscal year ending June 2026 was due 2026-10-15, before onboarding; the next one ends June 2027.
    expect(local(sCorp, 'OH', ['oh-columbus', 'oh-cleveland', 'oh-cincinnati'])).toEqual([
      '?oh-cincinnati',
      '?oh-cleveland',
      '?oh-columbus',
      'oh-columbus-net-profit-return 2027-10-15',
    ]);
    const smllc = planTasks(catalog, input({ taxClassification: 'disregarded' }, [location('OH')]));
    expect(local(smllc, 'OH', ['oh-columbus', 'oh-cleveland', 'oh-cincinnati'])).toEqual([]);
  });

  it('Cleveland and Cincinnati: calendar-year corporations file by April 15', () => {
    const tasks = planTasks(
      catalog,
      input(
        { entityType: 'c_corp', taxClassification: 'corp' },
        [location('OH')],
        [
          registered('OH'),
          locality('OH', 'oh-columbus', false),
          locality('OH', 'oh-cleveland', true),
          locality('OH', 'oh-cincinnati', true),
        ],
      ),
    );
    expect(local(tasks, 'OH', ['oh-columbus', 'oh-cleveland', 'oh-cincinnati'])).toEqual([
      '?oh-cincinnati',
      '?oh-cleveland',
      '?oh-columbus',
      'oh-cincinnati-business-return 2027-04-15',
      'oh-cleveland-net-profit-return 2027-04-15',
    ]);
  });

  it('Kansas City: the licence within 60 days of opening, its renewal before March 1, and the profits return by April 15', () => {
    const tasks = planTasks(
      catalog,
      input(
        {},
        [location('MO')],
        [
          registered('MO'),
          answer('operations-start-date', 'MO', '2026-11-10'),
          locality('MO', 'mo-kansas-city', true),
          locality('MO', 'mo-st-louis', false),
        ],
      ),
    );
    expect(local(tasks, 'MO', ['mo-kansas-city-business', 'mo-kansas-city-profits', 'mo-st-louis-earnings-tax-return'])).toEqual([
      '?mo-kansas-city',
      '?mo-st-louis',
      'mo-kansas-city-business-license 2027-01-09',
      'mo-kansas-city-business-license-renewal 2027-02-28',
      'mo-kansas-city-profits-return 2027-04-15',
    ]);
  });

  it('St. Louis: the graduated business licence and the earnings tax return by April 15', () => {
    const tasks = planTasks(
      catalog,
      input({}, [location('MO')], [registered('MO'), locality('MO', 'mo-kansas-city', false), locality('MO', 'mo-st-louis', true)]),
    );
    expect(local(tasks, 'MO', ['mo-st-louis-graduated', 'mo-st-louis-earnings-tax-return', 'mo-kansas-city-business'])).toEqual([
      '?mo-kansas-city',
      '?mo-st-louis',
      'mo-st-louis-earnings-tax-return 2027-04-15',
      'mo-st-louis-graduated-business-license -',
    ]);
  });

  it('Detroit: a C corporation files the corporate return, a partnership the partnership return', () => {
    const corp = planTasks(
      catalog,
      input({ entityType: 'c_corp', taxClassification: 'corp' }, [location('MI')], [registered('MI'), locality('MI', 'mi-detroit', true)]),
    );
    expect(local(corp, 'MI', ['mi-detroit'])).toEqual(['?mi-detroit', 'mi-detroit-corporate-income-tax-return 2027-04-15']);
    const partnership = planTasks(catalog, input({}, [location('MI')], [registered('MI'), locality('MI', 'mi-detroit', true)]));
    expect(local(partnership, 'MI', ['mi-detroit'])).toEqual(['?mi-detroit', 'mi-detroit-partnership-return 2027-04-15']);
  });

  it('New Orleans and Seattle: licence renewals on the last day of February and December 31', () => {
    const nola = planTasks(catalog, input({}, [location('LA')], [registered('LA'), locality('LA', 'la-new-orleans', true)]));
    expect(local(nola, 'LA', ['la-new-orleans'])).toEqual([
      '?la-new-orleans',
      'la-new-orleans-occupational-license -',
      'la-new-orleans-occupational-license-renewal 2027-02-28',
    ]);
    const seattle = planTasks(catalog, input({}, [location('WA')], [registered('WA'), locality('WA', 'wa-seattle', true)]));
    // Seattle certificates expire every December 31: this year's renewal (for 2027) is within the coming twelve months.
    expect(local(seattle, 'WA', ['wa-seattle-business-license'])).toEqual([
      '?wa-seattle',
      'wa-seattle-business-license-renewal 2026-12-31',
      'wa-seattle-business-license-tax -',
    ]);
  });

  it('Denver: the city sales tax licence only for a seller of goods with a Denver location', () => {
    const others = [locality('CO', 'co-aurora', false), locality('CO', 'co-colorado-springs', false)];
    const seller = planTasks(
      catalog,
      input({}, [location('CO')], [answer('sells-tangible-goods', 'DE', true), locality('CO', 'co-denver', true), ...others]),
    );
    expect(local(seller, 'CO', ['co-denver-sales'])).toEqual([
      '?co-aurora',
      '?co-colorado-springs',
      '?co-denver',
      'co-denver-sales-tax-license -',
    ]);
    // A seller of services only is not asked about Colorado Springs (its licence is for retail sellers of goods).
    const services = planTasks(
      catalog,
      input(
        {},
        [location('CO')],
        [answer('sells-tangible-goods', 'DE', false), locality('CO', 'co-denver', true), locality('CO', 'co-aurora', false)],
      ),
    );
    expect(local(services, 'CO', ['co-denver-sales'])).toEqual(['?co-aurora', '?co-denver']);
  });

  it('Aurora and Colorado Springs: the Aurora business licence for any business there, the Colorado Springs sales tax licence for a retail seller', () => {
    const tasks = planTasks(
      catalog,
      input(
        {},
        [location('CO')],
        [
          answer('sells-tangible-goods', 'DE', true),
          locality('CO', 'co-denver', false),
          locality('CO', 'co-aurora', true),
          locality('CO', 'co-colorado-springs', true),
        ],
      ),
    );
    expect(local(tasks, 'CO', ['co-aurora', 'co-colorado-springs', 'co-denver-sales']).filter((l) => !l.startsWith('?'))).toEqual([
      'co-aurora-business-license -',
      'co-colorado-springs-sales-tax-license -',
    ]);
  });

  it('Albuquerque: a licence for each location; remote employees only are not asked', () => {
    const office = planTasks(catalog, input({}, [location('NM')], [locality('NM', 'nm-albuquerque', true)]));
    expect(local(office, 'NM', ['nm-albuquerque'])).toEqual(['?nm-albuquerque', 'nm-albuquerque-business-license -']);
    const remote = planTasks(catalog, input({}, [location('NM', { hasPhysicalLocation: false })]));
    expect(local(remote, 'NM', ['nm-albuquerque'])).toEqual([]);
  });

  it('Philadelphia and Portland: the free activity licence, and the combined return by the 15th day of the fourth month', () => {
    const philly = planTasks(
      catalog,
      input({}, [location('PA')], [locality('PA', 'pa-philadelphia', true), locality('PA', 'pa-pittsburgh', false)]),
    );
    expect(local(philly, 'PA', ['pa-philadelphia-commercial'])).toEqual([
      '?pa-philadelphia',
      '?pa-pittsburgh',
      'pa-philadelphia-commercial-activity-license -',
    ]);
    const portland = planTasks(
      catalog,
      input(
        {},
        [location('OR')],
        [
          registered('OR'),
          locality('OR', 'or-portland-multnomah', true),
          locality('OR', 'or-trimet-district', false),
          locality('OR', 'or-lane-transit-district', false),
        ],
      ),
    );
    expect(local(portland, 'OR', ['or-portland-multnomah-combined'])).toEqual([
      '?or-lane-transit-district',
      '?or-portland-multnomah',
      '?or-trimet-district',
      'or-portland-multnomah-combined-tax-return 2027-04-15',
    ]);
  });
});
