/**
 * `BENCH_SCENARIO=automations npm run bench`: only the automations step (bench/automations.ts), on a Statehouse
 * started as the full bench starts it, with the same run's bare-pg floor (b) measured first for scale.
 * Writes bench/results/automations-latest.json.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runAutomations } from './automations.js';
import { automationsLines } from './automations-report.js';
import { REPO_ROOT, type Child } from './children.js';
import { measure } from './load.js';
import { cleanup } from './run-state.js';
import { AUTOMATIONS, say, SECONDS, WARMUP_SECONDS } from './settings.js';
import { startServers } from './setup.js';
import { barePgTarget } from './targets.js';

export async function runAutomationsScenario(): Promise<number> {
  const startedAt = new Date();
  try {
    const servers = await startServers();
    const { statehouse, sh } = servers;
    const floor = await measure(barePgTarget(servers), null);
    const report = await runAutomations(statehouse as Child<Record<string, unknown>>, sh.connectionString, sh.url, floor);
    const failures = [...(report?.failures ?? [])];
    if (floor.requests === 0 || floor.non2xx > 0 || floor.errors > 0 || floor.mismatches > 0)
      failures.push(
        `b bare-pg: ${floor.requests} requests, ${floor.non2xx} non-2xx, ${floor.errors} errors, ${floor.mismatches} mismatches`,
      );
    const out = [
      '',
      `Statehouse benchmark, automations only — ${startedAt.toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, node ${process.version}`,
      `b bare-pg (floor, ${WARMUP_SECONDS} s warmup + ${SECONDS} s): ${floor.requestsPerSecond.toFixed(0)} req/s, server ${floor.cpuMicrosPerRequest.server?.toFixed(0) ?? 'n/a'} µs/req, ` +
        `db ${floor.cpuMicrosPerRequest.database?.toFixed(0) ?? 'n/a'} µs/req, other CPU ${floor.cpuPercent.other.toFixed(0)} %`,
      ...automationsLines(report),
      ...(failures.length > 0 ? ['', 'FAILURES:', ...failures.map((f) => `  - ${f}`)] : []),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    say('stopping servers');
    const problems = await cleanup();
    failures.push(...problems);
    const file = path.join(REPO_ROOT, 'bench', 'results', 'automations-latest.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      `${JSON.stringify({ date: startedAt.toISOString(), cpus: os.cpus().length, node: process.version, automations: AUTOMATIONS, floor, report, failures, ok: failures.length === 0 }, null, 2)}\n`,
    );
    say(`results written to ${path.relative(REPO_ROOT, file)}`);
    process.stdout.write(
      failures.length === 0 ? '\nbench OK\n' : `\nbench FAILED (${failures.length} problem${failures.length === 1 ? '' : 's'})\n`,
    );
    return failures.length === 0 ? 0 : 1;
  } finally {
    await cleanup();
  }
}
