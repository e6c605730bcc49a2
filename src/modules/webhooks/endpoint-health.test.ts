import { describe, expect, it } from 'vitest';
import { nextHealth, type EndpointHealth } from './endpoint-health.js';

const settings = { disableAfterHours: 72, disableAfterFailures: 3 };
const healthy: EndpointHealth = {
  status: 'enabled',
  consecutive_failures: 0,
  failing_since: null,
  last_success_at: null,
  disabled_at: null,
  disabled_reason: null,
};
const at = (hours: number) => new Date(Date.UTC(2026, 10, 1) + hours * 3_600_000);
const fail = (health: EndpointHealth, hours: number, error = 'HTTP 500') =>
  nextHealth(health, { ok: false, at: at(hours), error }, settings);

describe('nextHealth (the disabling rule)', () => {
  it('a first failure starts the run; later ones count without moving its start', () => {
    const once = fail(healthy, 0);
    expect(once).toMatchObject({ consecutive_failures: 1, failing_since: at(0), status: 'enabled' });
    expect(fail(once, 5)).toMatchObject({ consecutive_failures: 2, failing_since: at(0), status: 'enabled' });
  });

  it('a success resets the count and the run, and records when', () => {
    const failing = fail(fail(healthy, 0), 1);
    expect(nextHealth(failing, { ok: true, at: at(2) }, settings)).toEqual({ ...healthy, last_success_at: at(2) });
  });

  it('disables only when failing for longer than the hours AND at least the failures', () => {
    // Many failures within the window: still enabled.
    let health = healthy;
    for (let i = 0; i < 10; i++) health = fail(health, i);
    expect(health.status).toBe('enabled');
    // Past the window, but too few failures: still enabled.
    const twoOverLongTime = fail(fail(healthy, 0), 100);
    expect(twoOverLongTime).toMatchObject({ status: 'enabled', consecutive_failures: 2 });
    // Both: disabled, with the reason.
    const disabled = fail(twoOverLongTime, 101, 'timeout after 10000 ms');
    expect(disabled).toMatchObject({ status: 'disabled', disabled_at: at(101), consecutive_failures: 3 });
    expect(disabled.disabled_reason).toBe(
      `no successful delivery since ${at(0).toISOString()} (3 attempts failed; last: timeout after 10000 ms)`,
    );
  });

  it('exactly the hours is not yet longer than them', () => {
    const health = fail(fail(fail(healthy, 0), 1), 72);
    expect(health.status).toBe('enabled');
    expect(fail(health, 72.01).status).toBe('disabled');
  });

  it('an outcome for a disabled endpoint is counted but keeps the first reason', () => {
    const disabled = fail(fail(fail(healthy, 0), 50), 80);
    const later = fail(disabled, 90, 'HTTP 502');
    expect(later).toMatchObject({
      status: 'disabled',
      consecutive_failures: 4,
      disabled_at: at(80),
      disabled_reason: disabled.disabled_reason,
    });
  });

  it('a reason without a recorded error says only the count', () => {
    const health = nextHealth(fail(fail(healthy, 0), 1), { ok: false, at: at(100) }, settings);
    expect(health.disabled_reason).toBe(`no successful delivery since ${at(0).toISOString()} (3 attempts failed)`);
  });
});
