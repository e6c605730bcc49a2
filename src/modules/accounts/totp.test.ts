import { describe, expect, it } from 'vitest';
import { decodeBase32, totp } from './totp.js';

describe('totp (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1 seed "12345678901234567890".
  const seed = Buffer.from('12345678901234567890', 'ascii');
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
  ])('at %i s', (seconds, code) => {
    expect(totp(seed, seconds * 1000, 8).code).toBe(code);
  });

  it('gives 6 digits and the seconds left in the step', () => {
    expect(totp(seed, 59_000)).toEqual({ code: '287082', secondsLeft: 1 });
  });

  it('decodes base32 seeds as authenticator apps show them', () => {
    expect(decodeBase32('GEZD GNBV-GY3T QOJQ GEZD GNBV GY3T QOJQ==')).toEqual(seed);
    expect(() => decodeBase32('not base32!')).toThrow();
  });
});
