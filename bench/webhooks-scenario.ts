/**
 * `BENCH_SCENARIO=webhooks npm run bench`: only the webhooks step (bench/webhooks.ts), on a Statehouse started as
 * the full bench starts it, with the same run's bare-pg floor (b) measured first for scale.
 * Writes bench/results/webhooks-latest.json.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, type Child } from './children.js';
import { measure } from './load.js';
import { cleanup } from './run-state.js';
import { CONNECTIONS, NOISY_OTHER_CPU_PERCENT, say, SECONDS, WARMUP_SECONDS, WEBHOOK_EVENTS, WEBHOOK_WRITERS } from './settings.js';
import { startServers } from './setup.js';
import { barePgTarget } from './targets.js';
import { runWebhooks } from './webhooks.js';
import { webhooksLines } from './webhooks-report.js';

export async function runWebhooksScenario(): Promise<number> {
  const startedAt = new Date();
  try {
    const servers = await startServers();
    const floor = await measure(barePgTarget(servers), null);
    const report = await runWebhooks(servers.statehouse as Child<Record<string, unknown>>, servers.sh, floor);
    const failures = [...report.failures];
    if (floor.requests === 0 || floor.non2xx > 0 || floor.errors > 0 || floor.mismatches > 0)
      failures.push(
        `b bare-pg: ${floor.requests} requests, ${floor.non2xx} non-2xx, ${floor.errors} errors, ${floor.mismatches} mismatches`,
      );
    const noisy = [floor, report.write.withoutEndpoint, report.write.withEndpoint].filter(
      (m) => m.cpuPercent.other > NOISY_OTHER_CPU_PERCENT,
    );
    const out = [
      '',
      `Statehouse benchmark, webhooks only — ${startedAt.toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, node ${process.version}; ` +
        `${CONNECTIONS} connections, ${WARMUP_SECONDS} s warmup + ${SECONDS} s per target; (b) ${WEBHOOK_EVENTS} events, ${WEBHOOK_WRITERS} writers; load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      `b bare-pg (floor): ${floor.requestsPerSecond.toFixed(0)} req/s, server ${floor.cpuMicrosPerRequest.server?.toFixed(0) ?? 'n/a'} µs/req, ` +
        `db ${floor.cpuMicrosPerRequest.database?.toFixed(0) ?? 'n/a'} µs/req, other CPU ${floor.cpuPercent.other.toFixed(0)} %`,
      ...webhooksLines(report),
      ...(noisy.length > 0
        ? [
            '',
            `NOTE: other work used the CPU during ${noisy.map((m) => `${m.key} (${m.cpuPercent.other.toFixed(0)} %)`).join(', ')}: those figures are disturbed.`,
          ]
        : []),
      ...(failures.length > 0 ? ['', 'FAILURES:', ...failures.map((f) => `  - ${f}`)] : []),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    say('stopping servers');
    const problems = await cleanup();
    failures.push(...problems);
    const file = path.join(REPO_ROOT, 'bench', 'results', 'webhooks-latest.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      `${JSON.stringify({ date: startedAt.toISOString(), cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg(), floor, report, failures, ok: failures.length === 0 }, null, 2)}\n`,
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
