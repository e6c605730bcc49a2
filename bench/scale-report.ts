// The scale scenario's report as text: the loads, one row per target and connection count, memory and plans.
import type { Measurement } from './load.js';
import { readMemory } from './proc.js';
import { describeScans, type ExplainedStatement } from './scale-plans.js';
import type { ScaleLoadReport } from './scale-load.js';
import { SECONDS, WARMUP_SECONDS } from './settings.js';

export const fmt = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined || !Number.isFinite(n) ? '—' : n.toFixed(digits);
/** The p50 ratio goal (scale.ts, SCALE_GOAL). */
type Goal = { maxP50Ratio: number };
type Size = { entities: number; statehouse: { pid: number } };
export interface ScaleRow {
  kind: string;
  name: string;
  connections: number;
  small: Measurement;
  large: Measurement;
  ratio: number;
}

export function scaleReportText(input: {
  loads: ScaleLoadReport[];
  servers: Size[];
  rows: ScaleRow[];
  results: Array<Measurement & { entities: number }>;
  plans: Record<string, Record<string, ExplainedStatement[]>>;
  meanLoadAverage: number;
  goal: Goal;
}): string {
  const { loads, servers, rows, results, plans, goal } = input;
  const [small, large] = [servers[0]!, servers[servers.length - 1]!];
  const lines: string[] = [];
  lines.push(
    `\nA million entities: ${small.entities} vs ${large.entities} entities, ${SECONDS} s per run after ${WARMUP_SECONDS} s warmup`,
  );
  for (const load of loads) {
    lines.push(
      `  ${load.entities}: ${load.reused ? 'reused' : 'loaded'}; load ${load.loadSeconds.toFixed(0)} s (${Object.entries(load.phases)
        .map(([p, s]) => `${p} ${s.toFixed(0)} s`)
        .join(', ')}); ` +
        `database ${(load.databaseBytes / 2 ** 30).toFixed(2)} GiB; rows ${Object.entries(load.rows)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')}; hot entity ${load.hotTasks} tasks`,
    );
  }
  lines.push('');
  // PostgreSQL's CPU per request is the figure a bigger database would push up (deeper indexes, pages not cached),
  // and it is less disturbed by other load on the machine than latencies.
  const k = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));
  const [s0, s1] = [k(small.entities), k(large.entities)];
  lines.push(
    `| target | conn | p50 ${s0} | p99 ${s0} | req/s ${s0} | p50 ${s1} | p99 ${s1} | req/s ${s1} | p50 ratio | db µs/req ${s0} | db µs/req ${s1} |`,
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.connections} | ${fmt(r.small.latencyMs.p50)} | ${fmt(r.small.latencyMs.p99)} | ${fmt(r.small.requestsPerSecond, 0)} | ${fmt(r.large.latencyMs.p50)} | ${fmt(r.large.latencyMs.p99)} | ${fmt(r.large.requestsPerSecond, 0)} | ${fmt(r.ratio)}${r.ratio <= goal.maxP50Ratio ? '' : ' ✗'} | ${fmt(r.small.cpuMicrosPerRequest.database, 0)} | ${fmt(r.large.cpuMicrosPerRequest.database, 0)} |`,
    );
  }
  const peak = (entities: number) => Math.max(...results.filter((r) => r.entities === entities).map((r) => r.peakRssMiB ?? 0));
  lines.push(
    `\nStatehouse peak RSS: ${servers
      .map(
        (s) =>
          `${peak(s.entities)} MiB at ${s.entities}${(() => {
            const m = readMemory(s.statehouse.pid);
            return m ? ` (now ${(m.rssKiB / 1024).toFixed(0)} MiB)` : '';
          })()}`,
      )
      .join(', ')}`,
  );
  lines.push(`Load average during the runs (mean of the 1-minute figure after each run): ${input.meanLoadAverage.toFixed(2)}`);
  lines.push(`\nQuery plans at ${large.entities} entities (EXPLAIN ANALYZE, rolled back):`);
  for (const [kind, list] of Object.entries(plans[large.entities] ?? {})) {
    lines.push(`  ${kind}:`);
    for (const p of list)
      lines.push(
        `    ${fmt(p.executionMs, 3)} ms  ${p.text.replace(/\s+/g, ' ').trim().slice(0, 110)}\n        ${p.error ? `not explained: ${p.error}` : describeScans(p.scans).join('; ') || '(no table scanned)'}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
