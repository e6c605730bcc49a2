import { describe, expect, it } from 'vitest';
import { horizonOf, nextStop, parseInstant } from './test-clocks.fns.js';

describe('parseInstant', () => {
  it('reads a date-time with its offset, or a date as midnight UTC', () => {
    expect(parseInstant('2027-01-15T09:30:00Z')?.toISOString()).toBe('2027-01-15T09:30:00.000Z');
    expect(parseInstant('2027-01-15T09:30:00.250+02:00')?.toISOString()).toBe('2027-01-15T07:30:00.250Z');
    expect(parseInstant('2027-01-15')?.toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('refuses what is not a real instant: no offset, a day the calendar lacks, prose', () => {
    for (const bad of ['2027-01-15T09:30:00', '2027-02-30', '2027-13-01', 'next tuesday', '', '1700000000'])
      expect(parseInstant(bad)).toBeNull();
  });
});

describe('horizonOf', () => {
  it('is 24 months later at the same time of day', () => {
    expect(horizonOf(new Date('2026-11-28T10:00:00Z')).toISOString()).toBe('2028-11-28T10:00:00.000Z');
  });
});

describe('nextStop', () => {
  const current = new Date('2026-12-01T10:00:00Z');
  const target = new Date('2027-06-01T10:00:00Z');

  it("stops at the start of the day the entity's plan changes on, when it lies between", () => {
    expect(nextStop(current, target, '2027-02-15').toISOString()).toBe('2027-02-15T00:00:00.000Z');
  });

  it('goes straight to the target otherwise (no day, a day passed already, the target day or later)', () => {
    for (const day of [null, '2026-12-01', '2026-11-01', '2027-06-01', '2027-09-01']) expect(nextStop(current, target, day)).toBe(target);
  });
});
