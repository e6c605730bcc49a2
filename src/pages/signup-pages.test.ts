import { describe, expect, it } from 'vitest';
import { readableDate } from './signup-pages.js';

describe('readableDate', () => {
  it('writes an ISO date as people read it', () => {
    expect(readableDate('2024-03-04')).toBe('March 4, 2024');
    expect(readableDate('2021-12-31')).toBe('December 31, 2021');
  });

  it('leaves anything else as it is', () => {
    expect(readableDate('2024-13-01')).toBe('2024-13-01');
    expect(readableDate('soon')).toBe('soon');
  });
});
