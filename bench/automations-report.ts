/** The automations step's lines in the printed report (bench/automations.ts). */
import type { AutomationsReport } from './automations.js';

const fixed = (value: number | null, digits: number) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

export function automationsLines(r: AutomationsReport | null): string[] {
  if (!r) return ['Automations: skipped (BENCH_AUTOMATIONS=0)'];
  const { cpu, latencyMs: l, starts, outputs: o } = r;
  const lines = [
    `Automations (h): ${r.automations} sandbox automations (step delay 0), one entity each (CA payroll registration and CA foreign qualification in turn), ` +
      `entities seeded untimed in ${r.seedSeconds.toFixed(1)} s; started through POST /tasks/{task_id}/automate, ${r.concurrency} requests in flight`,
    `  ${fixed(r.automationsPerSecond, 1)} automations/s: first start → last complete ${fixed(r.seconds, 2)} s (PostgreSQL's clock; the client saw ${fixed(r.clientSeconds, 2)} s ` +
      `to notice the last, polling every 250 ms)`,
    `  start → complete (automation_status_logs, per automation): p50 ${fixed(l.p50, 0)} ms, p90 ${fixed(l.p90, 0)} ms, p99 ${fixed(l.p99, 0)} ms, max ${fixed(l.max, 0)} ms`,
    `  the starts: ${fixed(starts.perSecond, 0)} req/s over ${fixed(starts.seconds, 2)} s, p50 ${fixed(starts.latencyMs.p50, 1)} ms, p99 ${fixed(starts.latencyMs.p99, 1)} ms`,
    `  CPU per automation: server ${fixed(cpu.serverMsPerAutomation, 2)} ms, PostgreSQL ${fixed(cpu.databaseMsPerAutomation, 2)} ms ` +
      `(server ${fixed(cpu.percent.server, 0)} %, db ${fixed(cpu.percent.database, 0)} %, other ${fixed(cpu.percent.other, 0)} % of one core over the run)`,
  ];
  if (r.floor) {
    lines.push(
      `  for scale, the same run's bare-pg floor (b) costs ${fixed(r.floor.serverMicrosPerRequest, 0)} µs server + ${fixed(r.floor.databaseMicrosPerRequest, 0)} µs db per request: ` +
        `an automation is worth ${fixed(r.floor.serverRequestsPerAutomation, 0)} of its requests on the server side, ${fixed(r.floor.databaseRequestsPerAutomation, 0)} on PostgreSQL's`,
    );
  }
  lines.push(
    `  outputs: ${o.accounts} agency accounts, ${o.documents} confirmation documents, ${o.logins} logins, ${o.stepRecords} step records for ${o.entities} entities; ` +
      `${o.wrong === 0 ? 'each written once' : `${o.wrong} entities with missing or duplicate outputs`}; statuses ${JSON.stringify(r.statuses)}`,
  );
  return lines;
}
