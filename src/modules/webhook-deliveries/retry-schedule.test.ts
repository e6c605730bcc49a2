import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { retryDelayMs, retrySpanMs } from './retry-schedule.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('webhook retry schedule', () => {
  it('pauses 1 min, 5 min, 30 min, 2 h, 5 h, then 10 h with a one-minute base', () => {
    const pauses = Array.from({ length: 9 }, (_, i) => retryDelayMs(i + 1, MINUTE));
    expect(pauses).toEqual([MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR]);
  });

  it('covers at least 24 hours with the configured defaults', () => {
    const { retryBaseMs, maxAttempts } = loadConfig({}).webhooks;
    expect(retrySpanMs(maxAttempts, retryBaseMs)).toBeGreaterThanOrEqual(24 * HOUR);
    // Eight attempts are already enough: the rest are margin for a longer outage.
    expect(retrySpanMs(8, MINUTE)).toBeGreaterThanOrEqual(24 * HOUR);
    expect(retrySpanMs(7, MINUTE)).toBeLessThan(24 * HOUR);
    expect(retrySpanMs(12, MINUTE)).toBe(4056 * MINUTE);
  });

  it('never shrinks from one attempt to the next, and scales with the base', () => {
    for (let failed = 1; failed < 20; failed++) expect(retryDelayMs(failed + 1, 1000)).toBeGreaterThanOrEqual(retryDelayMs(failed, 1000));
    expect(retryDelayMs(3, 100)).toBe(3_000);
    expect(retryDelayMs(4, 0)).toBe(0);
    expect(retrySpanMs(1, MINUTE)).toBe(0);
  });
});
