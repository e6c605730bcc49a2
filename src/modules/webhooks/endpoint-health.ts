/** An endpoint's delivery health, as stored on its row. */
export interface EndpointHealth {
  status: 'enabled' | 'disabled';
  consecutive_failures: number;
  failing_since: Date | null;
  last_success_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

export interface DeliveryOutcome {
  ok: boolean;
  at: Date;
  /** Why the attempt failed, e.g. `HTTP 500` or `timeout after 10000 ms`. */
  error?: string;
}

export interface DisableSettings {
  disableAfterHours: number;
  disableAfterFailures: number;
}

/**
 * The disabling rule: a success resets the count; a failure counts, and the first of a run marks when failing
 * began. An endpoint is disabled once it has been failing for longer than `disableAfterHours` AND at least
 * `disableAfterFailures` attempts in a row failed — a short outage or a single slow retry disables nothing.
 * An outcome for an already disabled endpoint (a late attempt, a manual redelivery) is counted but never re-disables.
 */
export function nextHealth(health: EndpointHealth, outcome: DeliveryOutcome, settings: DisableSettings): EndpointHealth {
  if (outcome.ok) return { ...health, consecutive_failures: 0, failing_since: null, last_success_at: outcome.at };
  const failures = health.consecutive_failures + 1;
  const failingSince = health.failing_since ?? outcome.at;
  const next = { ...health, consecutive_failures: failures, failing_since: failingSince };
  const failingForMs = outcome.at.getTime() - failingSince.getTime();
  const sustained = failingForMs > settings.disableAfterHours * 3_600_000 && failures >= settings.disableAfterFailures;
  if (health.status !== 'enabled' || !sustained) return next;
  const last = outcome.error ? `; last: ${outcome.error}` : '';
  return {
    ...next,
    status: 'disabled',
    disabled_at: outcome.at,
    disabled_reason: `no successful delivery since ${failingSince.toISOString()} (${failures} attempts failed${last})`,
  };
}
