/**
 * When a failed delivery is tried again. With the default base (WEBHOOKS_RETRY_BASE_MS = 1 minute) the pauses are
 * 1 min, 5 min, 30 min, 2 h, 5 h, then 10 h each: 12 attempts (the default) span about 2.8 days, and the first
 * 8 already span more than 24 hours (27.6 h), so a receiver that is down for a day loses nothing.
 */
const PAUSE_FACTORS = [1, 5, 30, 120, 300, 600] as const;

/** The pause before the next attempt, after `failedAttempts` (≥ 1) attempts have failed. */
export function retryDelayMs(failedAttempts: number, baseMs: number): number {
  const index = Math.min(Math.max(failedAttempts, 1), PAUSE_FACTORS.length) - 1;
  return PAUSE_FACTORS[index]! * baseMs;
}

/** From the first attempt to the last of `maxAttempts`, if every one fails: the span the schedule covers. */
export function retrySpanMs(maxAttempts: number, baseMs: number): number {
  let total = 0;
  for (let failed = 1; failed < maxAttempts; failed++) total += retryDelayMs(failed, baseMs);
  return total;
}
