import { describe, expect, it } from 'vitest';
import { parseDate } from './dates.js';

// Expected values are what pydantic 2 (speedate) reports for a `date` field in lax mode.
describe('parseDate', () => {
  it.each([
    ['2024-02-29', { ok: true, value: '2024-02-29' }],
    ['2024-02-29T00:00:00', { ok: true, value: '2024-02-29' }],
    ['2024-02-29T00:00:00Z', { ok: true, value: '2024-02-29' }],
    ['2024-02-29T10:00:00', { ok: false, type: 'date_from_datetime_inexact' }],
    ['2023-02-29', { ok: false, type: 'date_from_datetime_parsing', error: 'day value is outside expected range' }],
    ['2023-13-01', { ok: false, type: 'date_from_datetime_parsing', error: 'month value is outside expected range of 1-12' }],
    ['2023-1-01', { ok: false, type: 'date_from_datetime_parsing', error: 'input is too short' }],
    ['abc', { ok: false, type: 'date_from_datetime_parsing', error: 'input is too short' }],
    ['01/02/2023', { ok: false, type: 'date_from_datetime_parsing', error: 'invalid character in year' }],
    ['2023/01/02', { ok: false, type: 'date_from_datetime_parsing', error: 'invalid date separator, expected `-`' }],
    [
      '2023-01-021',
      { ok: false, type: 'date_from_datetime_parsing', error: 'invalid datetime separator, expected `T`, `t`, `_` or space' },
    ],
    ['0', { ok: true, value: '1970-01-01' }],
    [86_400, { ok: true, value: '1970-01-02' }],
    [1_000, { ok: false, type: 'date_from_datetime_inexact' }],
    [true, { ok: false, type: 'date_type' }],
    [null, { ok: false, type: 'date_type' }],
    [{}, { ok: false, type: 'date_type' }],
  ])('%j', (input, expected) => {
    expect(parseDate(input)).toEqual(expected);
  });
});
