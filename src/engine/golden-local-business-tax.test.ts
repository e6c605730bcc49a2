import { describe, expect, it } from 'vitest';
import { planTasks } from './engine.js';
import type { TaskState } from './engine.types.js';
import {
  answer,
  CA_ASKED,
  CA_CITIES,
  california,
  catalog,
  input,
  local,
  locality,
  location,
  registered,
} from '../../test/helpers/golden-local.js';

/**
 * Golden scenarios for the local business taxes of issue 24 (catalog/families/local-business-tax/): a business that
 * answers yes to a city's or county's question gets its licence or return with the ordinance's dates, one that answers
 * no gets nothing, and a business without employees or premises in the state is not asked about the city at all.
 * Dates are computed by hand from the rule each requirement cites.
 */
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
});
