import { describe, expect, it } from 'vitest';
import { formatPhone, normalisePhone } from './phone-number.js';

describe('normalisePhone', () => {
  it.each(['(415) 555-0134', '415.555.0134', '+1 415 555 0134', '4155550134', '1-415-555-0134', ' 415 555 0134 '])(
    'reads %j as +14155550134',
    (typed) => {
      expect(normalisePhone(typed)).toEqual({ ok: true, e164: '+14155550134' });
    },
  );

  it('reads other countries given with a leading +', () => {
    expect(normalisePhone('+44 20 7946 0958')).toEqual({ ok: true, e164: '+442079460958' });
  });

  it('asks for the area code when digits are missing', () => {
    expect(normalisePhone('555-0134')).toEqual({ ok: false, message: 'Enter the full number with its area code, e.g. (415) 555-0134' });
  });

  it.each(['(415) 555-013', '+1 (123) 456-7890', 'call me', '00 44 20 7946 0958'])(
    'refuses %j with an example of a valid number',
    (typed) => {
      expect(normalisePhone(typed)).toMatchObject({ ok: false, message: expect.stringContaining('e.g. (415) 555-0134') });
    },
  );

  it('refuses an extension rather than dropping it', () => {
    expect(normalisePhone('415 555 0134 ext. 12')).toEqual({ ok: false, message: 'Enter the main number without an extension' });
  });
});

describe('formatPhone', () => {
  it('shows US numbers in the national format and others internationally', () => {
    expect(formatPhone('+14155550134')).toBe('(415) 555-0134');
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
  });

  it('shows what a platform stored as is when it is not a valid number', () => {
    expect(formatPhone('555 0000')).toBe('555 0000');
  });
});
