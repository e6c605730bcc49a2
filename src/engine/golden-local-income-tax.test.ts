import { describe, expect, it } from 'vitest';
import { planTasks } from './engine.js';
import { answer, catalog, input, local, locality, location, registered } from '../../test/helpers/golden-local.js';

/**
 * Golden scenarios for the local business taxes of issue 24 (catalog/families/local-business-tax/) that are returns on
 * income, earnings or profits (the licences and receipts: golden-local-business-tax.test.ts): a business that answers
 * yes to a city's question files with the ordinance's dates, one that answers no gets nothing. Dates are computed by
 * hand from the rule each requirement cites.
 */
describe('golden: local income and profit tax returns (issue 24)', () => {
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
