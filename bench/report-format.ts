/** Formatting of the report: the targets' and the task generation's tables, memory figures. */
import type { Child } from './children.js';
import type { Measurement } from './load.js';
import type { GenerationRun } from './generation-run.js';

/** The Statehouse child's process.memoryUsage() in MiB (bench/child-lifecycle.ts `memory`). */
export async function memoryUsage(child: Child<Record<string, unknown>>): Promise<Record<string, number> | null> {
  const reply = await child.command('memory').catch(() => null);
  const usage = reply?.usage as Record<string, number> | undefined;
  return usage ? Object.fromEntries(Object.entries(usage).map(([k, bytes]) => [k, mib(bytes / 1024)])) : null;
}

export const describeUsage = (usage: Record<string, number> | null) =>
  usage ? `heap ${usage.heapUsed}/${usage.heapTotal} MiB, external ${usage.external} MiB (array buffers ${usage.arrayBuffers} MiB)` : 'n/a';

export const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;
const fixed = (value: number | null, digits: number) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

export function table(rows: Measurement[]): string {
  const header = [
    'target',
    'body B',
    'req/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'non-2xx',
    'errors',
    'mismatch',
    'srv CPU',
    'srv µs/req',
    'db CPU',
    'db µs/req',
    'bench CPU',
    'other CPU',
  ];
  const lines = rows.map((r) => [
    `${r.key} ${r.name}`,
    String(r.responseBytes),
    fixed(r.requestsPerSecond, 0),
    fixed(r.latencyMs.p50, 2),
    fixed(r.latencyMs.p99, 2),
    fixed(r.latencyMs.max, 1),
    String(r.non2xx),
    String(r.errors),
    String(r.mismatches),
    `${fixed(r.cpuPercent.server, 0)} %`,
    fixed(r.cpuMicrosPerRequest.server, 0),
    `${fixed(r.cpuPercent.database, 0)} %`,
    fixed(r.cpuMicrosPerRequest.database, 0),
    `${fixed(r.cpuPercent.loadGenerator, 0)} %`,
    `${fixed(r.cpuPercent.other, 0)} %`,
  ]);
  return formatTable(header, lines);
}

function formatTable(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

export function generationTable(runs: GenerationRun[]): string {
  const header = [
    'run',
    'entities',
    'elapsed s',
    'entities/s',
    'tasks created',
    'tasks/s',
    'rows updated',
    'rows deleted',
    'slowest batch ms',
    'node CPU',
    'node µs/entity',
    'db CPU',
    'db µs/entity',
    'other CPU',
  ];
  const lines = runs.map((r, i) => [
    `e${i + 1} ${r.name}`,
    String(r.entities),
    fixed(r.elapsedSeconds, 2),
    fixed(r.entitiesPerSecond, 0),
    String(r.created),
    fixed(r.tasksPerSecond, 0),
    String(r.rows.updated),
    String(r.rows.deleted),
    fixed(r.slowestBatchMs, 0),
    `${fixed(r.cpuPercent.node, 0)} %`,
    fixed(r.cpuMicrosPerEntity.node, 0),
    `${fixed(r.cpuPercent.database, 0)} %`,
    fixed(r.cpuMicrosPerEntity.database, 0),
    `${fixed(r.cpuPercent.other, 0)} %`,
  ]);
  return formatTable(header, lines);
}
