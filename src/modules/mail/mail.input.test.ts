import { describe, expect, it } from 'vitest';
import { HttpError, InvalidInputError } from '../../lib/errors.js';
import { checkDateRange, checkPdf, checkReceived, checkRegion, checkType, optionalText } from './mail.input.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const pdf = (body: string) => Buffer.from(`%PDF-1.4\n${body}\n%%EOF\n`, 'latin1');

/** The fact a rule rejected: its path in the operation's input and the reason. */
function rejected(check: () => unknown): { path: (string | number)[]; reason: string } {
  try {
    check();
  } catch (error) {
    if (error instanceof InvalidInputError) return { path: error.path, reason: error.reason };
    throw error;
  }
  throw new Error('expected InvalidInputError');
}

describe('mail intake rules', () => {
  it('a file is a complete PDF within the size limit', () => {
    expect(() => checkPdf(pdf('x'), 1000)).not.toThrow();
    expect(rejected(() => checkPdf(Buffer.alloc(0), 1000))).toEqual({
      path: ['file'],
      reason: 'the file is empty; send the bytes of a PDF',
    });
    expect(rejected(() => checkPdf(Buffer.from('hello'), 1000)).reason).toMatch(/not a PDF/);
    expect(rejected(() => checkPdf(Buffer.from('%PDF-1.4 cut short'), 1000)).reason).toMatch(/no %%EOF marker/);
    const tooLarge = (() => {
      try {
        checkPdf(pdf('x'.repeat(100)), 50);
      } catch (error) {
        return error;
      }
    })();
    expect(tooLarge).toBeInstanceOf(HttpError);
    expect((tooLarge as HttpError).status).toBe(413);
  });

  it('the received day defaults to today (UTC), is a date, and is at most tomorrow', () => {
    expect(checkReceived(undefined, NOW)).toBe('2026-03-10');
    expect(checkReceived('', NOW)).toBe('2026-03-10');
    expect(checkReceived('2026-03-11', NOW)).toBe('2026-03-11');
    expect(rejected(() => checkReceived('2026-03-12', NOW))).toEqual({
      path: ['received'],
      reason: 'the received date 2026-03-12 is in the future',
    });
    expect(rejected(() => checkReceived('March 3', NOW)).reason).toBe("'March 3' is not a date (use YYYY-MM-DD)");
  });

  it('region, type and the texts are checked each on its own field', () => {
    expect(checkRegion(null)).toBeNull();
    expect(checkRegion('CA')?.code).toBe('CA');
    expect(rejected(() => checkRegion('California')).path).toEqual(['region']);
    expect(rejected(() => checkRegion('ZZ')).path).toEqual(['region']);
    expect(checkType(null)).toBe('registered-agent');
    expect(rejected(() => checkType('flyer' as never))).toEqual({
      path: ['type'],
      reason: 'type must be one of registered-agent, external-mail',
    });
    expect(optionalText('  EDD  ', 'sender', 10)).toBe('EDD');
    expect(optionalText('   ', 'sender', 10)).toBeNull();
    expect(rejected(() => optionalText('x'.repeat(11), 'sender', 10))).toEqual({
      path: ['sender'],
      reason: 'sender must be at most 10 characters',
    });
    expect(rejected(() => optionalText('a\u0007b', 'file_name', 10)).path).toEqual(['file_name']);
  });

  it('a listing whose end is before its start is refused on end_date', () => {
    expect(() => checkDateRange('2026-01-01', '2026-01-01')).not.toThrow();
    expect(() => checkDateRange(null, '2026-01-01')).not.toThrow();
    expect(rejected(() => checkDateRange('2026-02-01', '2026-01-01'))).toEqual({
      path: ['end_date'],
      reason: 'end_date (2026-01-01) is before start_date (2026-02-01)',
    });
  });
});
