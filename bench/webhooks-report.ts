/** The webhooks step's lines in the printed report (bench/webhooks.ts). */
import { table } from './report-format.js';
import { WEBHOOKS_GOAL } from './settings.js';
import type { WebhooksReport } from './webhooks.js';

const fixed = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);

export function webhooksLines(r: WebhooksReport | null): string[] {
  if (!r) return ['Webhooks: skipped (BENCH_WEBHOOKS=0)'];
  const { withoutEndpoint: i0, withEndpoint: i1 } = r.write;
  const f = r.floor;
  const inFloor = (micros: number | null | undefined, floorMicros: number | null | undefined) =>
    micros == null || !floorMicros ? 'n/a' : (micros / floorMicros).toFixed(1);
  const lines = [
    `Webhooks (i): ${r.entities} entities of a platform of their own (signed up untimed in ${r.seedSeconds.toFixed(1)} s), one per connection`,
    '',
    table([i0, i1]),
    '',
    `  i1/i0 the write with an endpoint vs without: ${(r.write.ratio * 100).toFixed(1)} % of req/s, p99 ${fixed(i0.latencyMs.p99, 1)} → ${fixed(i1.latencyMs.p99, 1)} ms`,
    `  i1 produced ${r.write.events} events; ${r.write.undelivered === 0 ? 'all delivered' : `${r.write.undelivered} NOT delivered`}, the last ${fixed(r.write.drainSeconds, 1)} s after the load ended`,
  ];
  const d = r.delivery;
  if (d) {
    lines.push(
      `  (b) ${d.events} events (${Object.entries(d.types)
        .map(([t, n]) => `${n} ${t}`)
        .join(', ')}) from ${d.writes} real writes by ${d.writers} clients in ${fixed(d.produceSeconds, 1)} s ` +
        `(${fixed(d.eventsPerSecondProduced, 0)} events/s produced)`,
      `      delivered ${d.delivered}: ${fixed(d.eventsPerSecondDelivered, 0)} events/s (first write → last delivery ${fixed(d.seconds, 1)} s; the last ${fixed(d.drainSeconds, 1)} s after the last write)`,
      `      commit (the write's response) → verified arrival: p50 ${fixed(d.latencyMs.p50, 0)} ms, p90 ${fixed(d.latencyMs.p90, 0)} ms, p99 ${fixed(d.latencyMs.p99, 0)} ms, max ${fixed(d.latencyMs.max, 0)} ms`,
      `      CPU per delivered event (its write included): server ${fixed(d.cpu.serverMicrosPerEvent, 0)} µs, PostgreSQL ${fixed(d.cpu.databaseMicrosPerEvent, 0)} µs ` +
        `(server ${fixed(d.cpu.percent.server, 0)} %, db ${fixed(d.cpu.percent.database, 0)} %, other ${fixed(d.cpu.percent.other, 0)} % of one core); ` +
        `the write alone (i0) costs ${fixed(i0.cpuMicrosPerRequest.server, 0)} µs + ${fixed(i0.cpuMicrosPerRequest.database, 0)} µs per request`,
    );
    if (f) {
      lines.push(
        `      for scale, the bare-pg floor (b): ${fixed(f.serverMicrosPerRequest, 0)} µs server + ${fixed(f.databaseMicrosPerRequest, 0)} µs db per request: a delivered event is worth ` +
          `${inFloor(d.cpu.serverMicrosPerEvent, f.serverMicrosPerRequest)} of its requests on the server, ${inFloor(d.cpu.databaseMicrosPerEvent, f.databaseMicrosPerRequest)} on PostgreSQL`,
      );
    }
  } else {
    lines.push('  (b) skipped (BENCH_WEBHOOK_EVENTS=0)');
  }
  lines.push(
    `  receiver: ${r.receiver.requests} deliveries, ${r.receiver.badSignatures} bad signatures, ${r.receiver.duplicates} duplicates (at-least-once)`,
    '',
    `WEBHOOKS TARGET ${r.write.goal.met ? 'MET' : 'NOT MET'}: the write with an enabled endpoint at ${(r.write.ratio * 100).toFixed(1)} % of its req/s without one ` +
      `(need ≥ ${WEBHOOKS_GOAL.minWriteRatio * 100} %)`,
  );
  return lines;
}
