/** Step 6 of the run: ratios, goals, failures, and the report printed on stdout. */
import os from 'node:os';
import { footprintLines, footprintVerdict, type StartupFigures } from './footprint.js';
import { profiles, type Measurement, type Target } from './load.js';
import type { prepareMailFixture, prepareTasksFixture } from './fixtures.js';
import type { MemoryStatus, RssSampler } from './proc.js';
import { describeUsage, generationTable, mib, table } from './report-format.js';
import { CONNECTIONS, GENERATION_GOAL, GOAL, NOISY_OTHER_CPU_PERCENT, SECONDS, TASKS_GOAL, WARMUP_SECONDS } from './settings.js';
import type { GenerationReport } from './generation-run.js';
import type { AutomationsReport } from './automations.js';
import { automationsLines } from './automations-report.js';
import type { WebhooksReport } from './webhooks.js';
import { webhooksLines } from './webhooks-report.js';

export interface VerdictInput {
  results: Measurement[];
  tasksResponse: Awaited<ReturnType<typeof prepareTasksFixture>>['tasksResponse'];
  mailResponse: Awaited<ReturnType<typeof prepareMailFixture>>['mailResponse'];
  generation: (GenerationReport & { pid: number }) | null;
  /** The automations step (h), null when skipped. */
  automations: AutomationsReport | null;
  /** The webhooks step (i), null when skipped. */
  webhooks: WebhooksReport | null;
  /** Statehouse's memory when idle (before the load) and at its end; the bare servers' at the end. */
  idle: MemoryStatus | null;
  end: MemoryStatus | null;
  staticEnd: MemoryStatus | null;
  pgEnd: MemoryStatus | null;
  idleUsage: Record<string, number> | null;
  endUsage: Record<string, number> | null;
  rss: RssSampler;
  startedAt: Date;
  /** The footprint's starts, measured before the load (run.ts, step 0). */
  startup: StartupFigures;
}

export async function verdict(input: VerdictInput) {
  const {
    results,
    tasksResponse,
    mailResponse,
    generation,
    automations,
    webhooks,
    idle,
    idleUsage,
    rss,
    end,
    endUsage,
    staticEnd,
    pgEnd,
    startedAt,
    startup,
  } = input;
  const by = (key: Target['key']) => results.find((r) => r.key === key)!;
  const [a, b, c1, c2, d0, d1, d2] = [by('a'), by('b'), by('c1'), by('c2'), by('d0'), by('d1'), by('d2')];
  const [f0, f1, g0, g1] = [by('f0'), by('f1'), by('g0'), by('g1')];
  const ratios = {
    c1_over_a: c1.requestsPerSecond / a.requestsPerSecond,
    c1_over_b: c1.requestsPerSecond / b.requestsPerSecond,
    c2_over_a: c2.requestsPerSecond / a.requestsPerSecond,
    d1_over_d0: d1.requestsPerSecond / d0.requestsPerSecond,
    d2_over_d0: d2.requestsPerSecond / d0.requestsPerSecond,
    f1_over_f0: f1.requestsPerSecond / f0.requestsPerSecond,
    g1_over_g0: g1.requestsPerSecond / g0.requestsPerSecond,
  };
  const goal = {
    ...GOAL,
    ratioToBarePg: ratios.c1_over_b,
    p99Ms: c1.latencyMs.p99,
    throughputMet: ratios.c1_over_b >= GOAL.minRatioToBarePg,
    p99Met: c1.latencyMs.p99 <= GOAL.maxP99Ms,
    met: false,
  };
  goal.met = goal.throughputMet && goal.p99Met;
  const tasksGoal = {
    ...TASKS_GOAL,
    tasks: tasksResponse.tasks,
    d1P99Ms: d1.latencyMs.p99,
    d2P99Ms: d2.latencyMs.p99,
    d1Met: d1.latencyMs.p99 <= TASKS_GOAL.maxP99Ms,
    d2Met: d2.latencyMs.p99 <= TASKS_GOAL.maxP99Ms,
    met: false,
  };
  tasksGoal.met = tasksGoal.d1Met && tasksGoal.d2Met;
  const generationGoal = generation && {
    ...GENERATION_GOAL,
    firstRunEntitiesPerSecond: generation.runs[0]?.entitiesPerSecond ?? NaN,
    reRunEntitiesPerSecond: generation.runs[1]?.entitiesPerSecond ?? NaN,
    firstRunMet: (generation.runs[0]?.entitiesPerSecond ?? 0) >= GENERATION_GOAL.minEntitiesPerSecond,
    reRunMet: (generation.runs[1]?.entitiesPerSecond ?? 0) >= GENERATION_GOAL.minEntitiesPerSecond,
    met: false,
  };
  if (generationGoal) generationGoal.met = generationGoal.firstRunMet && generationGoal.reRunMet;
  const memory = {
    idleRssMiB: idle ? mib(idle.rssKiB) : null,
    peakRssDuringLoadMiB: rss.samples > 0 ? mib(rss.peakKiB) : null,
    idleUsage,
    endUsage,
    rssSamples: rss.samples,
    vmHwmMiB: end ? mib(end.hwmKiB) : null,
    endRssMiB: end ? mib(end.rssKiB) : null,
    // For scale: the bare servers run the same way (compiled, or node + tsx in development).
    bareStaticVmHwmMiB: staticEnd ? mib(staticEnd.hwmKiB) : null,
    barePgVmHwmMiB: pgEnd ? mib(pgEnd.hwmKiB) : null,
  };
  // The footprint targets (bench/footprint.ts): the compiled binary's warm start, idle RSS and stop; the peak from above.
  const footprint = footprintVerdict(startup, memory.peakRssDuringLoadMiB);
  const failures: string[] = [];
  for (const r of results) {
    if (r.requests === 0) failures.push(`${r.key} ${r.name}: no request completed`);
    if (r.non2xx > 0) failures.push(`${r.key} ${r.name}: ${r.non2xx} non-2xx responses (${JSON.stringify(r.statusCodes)})`);
    if (r.errors > 0) failures.push(`${r.key} ${r.name}: ${r.errors} errors (${r.timeouts} timeouts) ${JSON.stringify(r.errorMessages)}`);
    if (r.mismatches > 0) failures.push(`${r.key} ${r.name}: ${r.mismatches} responses with a different body`);
  }
  for (const run of generation?.runs ?? []) {
    if (run.entities !== generation!.entities)
      failures.push(`e ${run.name}: rollForwardAll regenerated ${run.entities} entities of ${generation!.entities}`);
  }
  if (generation && generation.runs[0] && generation.runs[0].created === 0) failures.push('e first run: rollForwardAll created no task');
  failures.push(...(automations?.failures ?? []));
  failures.push(...(webhooks?.failures ?? []));

  const out: string[] = [];
  out.push('');
  out.push(
    `Statehouse benchmark — ${startedAt.toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, node ${process.version}`,
  );
  out.push(
    `${CONNECTIONS} connections; per target ${WARMUP_SECONDS} s warmup + ${SECONDS} s measured; latencies are per response, sub-ms resolution`,
  );
  out.push(
    `CPU columns: % of one core (this machine has ${os.cpus().length}): server process, embedded PostgreSQL, autocannon (this process),`,
  );
  out.push(`and "other": the rest of the machine's busy time (kernel networking, other programs; high means a noisy run).`);
  out.push('µs/req: CPU time per request of the server process / of PostgreSQL, the figure least disturbed by other load.');
  out.push('');
  out.push(table(results));
  out.push('');
  out.push(`c1/a  GET /legal_entity vs bare static     ${(ratios.c1_over_a * 100).toFixed(1)} %`);
  out.push(`c1/b  GET /legal_entity vs bare pg floor   ${(ratios.c1_over_b * 100).toFixed(1)} %`);
  out.push(`c2/a  POST /accounts/auth vs bare static   ${(ratios.c2_over_a * 100).toFixed(1)} %`);
  out.push(`d1/d0 GET /tasks vs bare pg tasks floor    ${(ratios.d1_over_d0 * 100).toFixed(1)} %`);
  out.push(`d2/d0 GET /v2/tasks vs bare pg tasks floor ${(ratios.d2_over_d0 * 100).toFixed(1)} %`);
  out.push(`f1/f0 GET /files/mail/{id} vs static PDF   ${(ratios.f1_over_f0 * 100).toFixed(1)} %`);
  out.push(`g1/g0 GET /v2/mail vs bare pg mail floor   ${(ratios.g1_over_g0 * 100).toFixed(1)} %`);
  out.push(
    `d entity: ${tasksResponse.tasks} tasks (${tasksResponse.locations.length} locations with employees and an office: ${tasksResponse.locations.join(' ')});`,
  );
  out.push(
    `  d0 returns all ${tasksResponse.rows} rows, d1 ${tasksResponse.d1.tasks} tasks, d2 ${tasksResponse.d2.tasks} of X-Total ${tasksResponse.d2.xTotal}`,
  );
  out.push(
    `mail (f, g): ${mailResponse.items} PDFs of ${mailResponse.pdfBytes.min}–${mailResponse.pdfBytes.max} B uploaded (untimed, ${mailResponse.seedSeconds.toFixed(1)} s) for the demo entity, ` +
      `regions ${mailResponse.regions.join(' ')}, received ${mailResponse.received.first} … ${mailResponse.received.last};`,
  );
  out.push(
    `  f0/f1 send one ${mailResponse.f1.bytes} B PDF (${f1.wireBytesPerResponse ? `${f1.wireBytesPerResponse.min}–${f1.wireBytesPerResponse.max}` : 'n/a'} B per f1 response on the wire), ` +
      `g0 returns ${mailResponse.g0.rows} rows, g1 ${mailResponse.g1.items} items`,
  );
  out.push(
    `Statehouse RSS: idle ${memory.idleRssMiB ?? 'n/a'} MiB, peak under load ${memory.peakRssDuringLoadMiB ?? 'n/a'} MiB (${memory.rssSamples} samples / 200 ms), VmHWM ${memory.vmHwmMiB ?? 'n/a'} MiB`,
  );
  out.push(
    `  V8 and buffers (process.memoryUsage): idle ${describeUsage(memory.idleUsage)}; after the load ${describeUsage(memory.endUsage)}`,
  );
  out.push(
    `  peak RSS per target: ${results
      .filter((r) => r.peakRssMiB !== undefined)
      .map((r) => `${r.key} ${r.peakRssMiB} MiB`)
      .join(', ')}`,
  );
  out.push(
    `  (for scale, peak RSS of the bare servers, run the same way: static ${memory.bareStaticVmHwmMiB ?? 'n/a'} MiB, pg ${memory.barePgVmHwmMiB ?? 'n/a'} MiB)`,
  );
  out.push('');
  out.push(
    `TARGET ${goal.met ? 'MET' : 'NOT MET'}: GET /legal_entity at ${(ratios.c1_over_b * 100).toFixed(1)} % of bare-pg req/s (need ≥ ${GOAL.minRatioToBarePg * 100} %: ${goal.throughputMet ? 'ok' : 'MISSED'}), ` +
      `p99 ${c1.latencyMs.p99.toFixed(2)} ms (need ≤ ${GOAL.maxP99Ms} ms: ${goal.p99Met ? 'ok' : 'MISSED'})`,
  );
  out.push(
    `TASKS TARGET ${tasksGoal.met ? 'MET' : 'NOT MET'} (${tasksResponse.tasks} tasks, ${CONNECTIONS} connections): ` +
      `GET /tasks p99 ${d1.latencyMs.p99.toFixed(2)} ms (need ≤ ${TASKS_GOAL.maxP99Ms} ms: ${tasksGoal.d1Met ? 'ok' : 'MISSED'}), ` +
      `GET /v2/tasks p99 ${d2.latencyMs.p99.toFixed(2)} ms (need ≤ ${TASKS_GOAL.maxP99Ms} ms: ${tasksGoal.d2Met ? 'ok' : 'MISSED'}); ` +
      `for scale, the bare floor d0: p99 ${d0.latencyMs.p99.toFixed(2)} ms`,
  );
  out.push(...footprintLines(footprint, startup.coldStartSeconds));
  if (generation && generationGoal) {
    out.push('');
    out.push(
      `Task generation: rollForwardAll over ${generation.entities} entities (${generation.locations} locations; ${Object.entries(
        generation.entityTypes,
      )
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}), ` +
        `batches of ${generation.batchSize}, own embedded PostgreSQL; seeded (untimed) in ${generation.seedSeconds.toFixed(1)} s`,
    );
    out.push(
      'CPU columns: % of one core: the generating node process, its PostgreSQL, and the rest of the machine. rows updated/deleted: task rows the run rewrote/removed.',
    );
    out.push('');
    out.push(generationTable(generation.runs));
    out.push('');
    const t = generation.tasksPerEntity;
    out.push(
      `tasks per entity: min ${t.min}, median ${t.p50}, p90 ${t.p90}, max ${t.max}, mean ${t.avg.toFixed(1)}; tasks table ${generation.tasksTableMiB.toFixed(0)} MiB`,
    );
    out.push('');
    out.push(
      `GENERATION TARGET ${generationGoal.met ? 'MET' : 'NOT MET'}: first run ${generationGoal.firstRunEntitiesPerSecond.toFixed(0)} entities/s ` +
        `(need ≥ ${GENERATION_GOAL.minEntitiesPerSecond}: ${generationGoal.firstRunMet ? 'ok' : 'MISSED'}), re-run ${generationGoal.reRunEntitiesPerSecond.toFixed(0)} entities/s ` +
        `(need ≥ ${GENERATION_GOAL.minEntitiesPerSecond}: ${generationGoal.reRunMet ? 'ok' : 'MISSED'})`,
    );
  } else {
    out.push('Task generation: skipped (BENCH_TASK_ENTITIES=0)');
  }
  out.push('');
  out.push(...automationsLines(automations));
  out.push('');
  out.push(...webhooksLines(webhooks));
  const noisy = [
    ...results.filter((r) => r.cpuPercent.other > NOISY_OTHER_CPU_PERCENT).map((r) => ({ key: r.key, other: r.cpuPercent.other })),
    ...(generation?.runs ?? [])
      .map((r, i) => ({ key: `e${i + 1}`, other: r.cpuPercent.other }))
      .filter((r) => r.other > NOISY_OTHER_CPU_PERCENT),
    ...(automations && automations.cpu.percent.other > NOISY_OTHER_CPU_PERCENT ? [{ key: 'h', other: automations.cpu.percent.other }] : []),
    ...(webhooks ? [webhooks.write.withoutEndpoint, webhooks.write.withEndpoint] : [])
      .filter((r) => r.cpuPercent.other > NOISY_OTHER_CPU_PERCENT)
      .map((r) => ({ key: r.key, other: r.cpuPercent.other })),
  ];
  if (noisy.length > 0) {
    out.push('');
    out.push(
      `NOTE: other work used the CPU during ${noisy.map((r) => `${r.key} (${r.other.toFixed(0)} %)`).join(', ')}: ` +
        'those figures are disturbed; run again on a quiet machine before drawing conclusions.',
    );
  }
  for (const [key, profile] of Object.entries(profiles)) {
    out.push('');
    out.push(
      `CPU PROFILE ${key} (${key.startsWith('e') ? 'the generating process, during a repeat of the run' : 'the server, during one more run after the measured one'}): ${profile.file}`,
    );
    for (const line of profile.summary) out.push(`  ${line}`);
  }
  if (failures.length > 0) {
    out.push('');
    out.push('FAILURES:');
    for (const f of failures) out.push(`  - ${f}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return { ratios, goal, tasksGoal, generationGoal, memory, startup, footprint, failures, noisy };
}
