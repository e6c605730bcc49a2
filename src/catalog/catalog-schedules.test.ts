import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';

/** Schedules the schema accepts but that mean nothing are refused at load, naming the file and the field. */
describe('catalog loader: schedule combinations', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-schedules-'));
  cpSync(fileURLToPath(new URL('../../test/fixtures/catalog', import.meta.url)), dir, { recursive: true });
  const file = path.join(dir, 'regions', 'CO.yaml');
  const original = readFileSync(file, 'utf8');
  const annual = 'schedule: { every: 1y, due: { rule: anniversary, of: registration_date, offset_months: 0, day: last } }';
  // The fixture's third requirement (index 2) is the annual report with this schedule.
  const loadWith = (schedule: string) => {
    if (!original.includes(annual)) throw new Error('fixture changed: the annual report schedule is not where this test expects it');
    writeFileSync(file, original.replace(annual, `schedule: ${schedule}`));
    return () => loadCatalog(dir);
  };
  const at = (field: string) => new RegExp(`${file.replace(/[/.]/g, '\\$&')}: /requirements/2/schedule/${field}: `);

  it.each([
    ['{ every: 1y, due: { rule: quarter_end, offset_months: 1, day: last } }', 'due', /quarter_end goes with every: 1q/],
    ['{ every: 1q, due: { rule: fixed, month: 4, day: 15 } }', 'due', /quarter_end goes with every: 1q/],
    ['{ every: 1y, parity: odd, due: { rule: fixed, month: 4, day: 15 } }', 'parity', /only to every: 2y or 3y/],
    ['{ every: 1y, parity_by_entity_type: { llc: odd }, due: { rule: fixed, month: 4, day: 15 } }', 'parity_by_entity_type', /only to every: 2y or 3y/],
    ['{ every: 3y, parity: even, due: { rule: fixed, month: 4, day: 15 } }', 'parity', /three-year cycle counts from the registration year only/],
    ['{ every: 3y, parity_by_entity_type: { llc: odd }, due: { rule: fixed, month: 4, day: 15 } }', 'parity_by_entity_type', /three-year cycle/],
    ['{ every: 1q, first: next-year, due: { rule: quarter_end, offset_months: 1, day: last } }', 'first', /first applies only to yearly/],
    ['{ every: 1y, due: { rule: months_after, of: registration_date, offset_months: 3, day: 15 } }', 'due', /recurring requirement needs a fixed, anniversary/],
    ['{ every: once, due: { rule: fixed, month: 4, day: 15 } }', 'due', /one-time requirement is due with rule none, within_days or months_after/],
  ])('refuses %s', (schedule, field, message) => {
    const load = loadWith(schedule);
    expect(load).toThrow(at(field));
    expect(load).toThrow(message);
  });

  it('refuses a months_after offset beyond 24 months (schema)', () => {
    expect(loadWith('{ every: once, due: { rule: months_after, of: registration_date, offset_months: 25, day: 15 } }')).toThrow(/requirements\/2\/schedule/);
  });

  it.each([
    '{ every: 1q, due: { rule: quarter_end, offset_months: 1, day: last } }',
    '{ every: 3y, parity: same-as-registration-year, due: { rule: fixed, month: 4, day: 15 } }',
    '{ every: 2y, parity: opposite-of-registration-year, first: next-year, due: { rule: fixed, month: 4, day: 1 } }',
    '{ every: 2y, parity: registration-number-digit, due: { rule: fiscal_year_end, offset_months: 4, day: 15 } }',
    '{ every: 2y, parity_by_entity_type: { c_corp: even, llc: odd }, due: { rule: fixed, month: 4, day: 15 } }',
    '{ every: once, due: { rule: months_after, of: registration_date, offset_months: 3, day: 15 } }',
    '{ every: once, due: { rule: months_after, of: operations_start_date, offset_months: 0, day: last } }',
  ])('accepts %s', (schedule) => {
    expect(loadWith(schedule)().requirement('co-annual-report-corporation')).toBeDefined();
  });
});
