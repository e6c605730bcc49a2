/** Task generation (e), in its own child with its own embedded PostgreSQL (bench/task-generation.ts). */
import fs from 'node:fs/promises';
import path from 'node:path';
import { READY_KEY } from './child-lifecycle.js';
import { REPO_ROOT, startChild } from './children.js';
import { profiles } from './load.js';
import { summarizeCpuProfile } from './profiler.js';
import { checkpoint, state } from './run-state.js';
import { CPU_PROFILE, PROFILE_DIR, say, TASK_ENTITIES } from './settings.js';
import type { GenerationReport } from './generation-run.js';

export async function runTaskGeneration(tempDir: string): Promise<(GenerationReport & { pid: number }) | null> {
  // 5b. Task generation (e), in its own child with its own embedded PostgreSQL, once the load is over.
  //     The other servers stay up but idle.
  let generation: (GenerationReport & { pid: number }) | null = null;
  if (TASK_ENTITIES > 0) {
    state.generationDataDir = path.join(tempDir, 'generation');
    const generationEnv: NodeJS.ProcessEnv = {
      ...process.env,
      STATEHOUSE_DATA_DIR: state.generationDataDir,
      BENCH_TASK_ENTITIES: String(TASK_ENTITIES),
      LOG_LEVEL: 'warn',
    };
    delete generationEnv.DATABASE_URL;
    delete generationEnv.BENCH_CPU_PROFILE_DIR;
    if (CPU_PROFILE.has('e')) {
      await fs.mkdir(PROFILE_DIR, { recursive: true });
      generationEnv.BENCH_CPU_PROFILE_DIR = PROFILE_DIR;
    }
    say(`task generation: ${TASK_ENTITIES} entities × 3 locations, embedded PostgreSQL in ${state.generationDataDir}`);
    const t1 = Date.now();
    // It reports when both runs are done (and their profiled repeats): allow for a slow machine (~50 ms per entity and pass).
    const timeoutMs = 300_000 + TASK_ENTITIES * 50 * (CPU_PROFILE.has('e') ? 2 : 1);
    const child = await startChild<GenerationReport & Record<string, unknown>>(
      'task-generation',
      'bench/task-generation.ts',
      generationEnv,
      timeoutMs,
    );
    const { [READY_KEY]: _ready, ...report } = child.info;
    generation = report as GenerationReport & { pid: number };
    for (const [key, file] of Object.entries(generation.profiles ?? {})) {
      profiles[key] = {
        file: path.relative(REPO_ROOT, file),
        summary: summarizeCpuProfile(JSON.parse(await fs.readFile(file, 'utf8')), REPO_ROOT),
      };
    }
    say(`task generation done in ${((Date.now() - t1) / 1000).toFixed(1)} s; stopping its PostgreSQL`);
    const exit = await child.stop();
    if (exit.forced || exit.code !== 0)
      throw new Error(
        `task-generation did not shut down cleanly (code ${exit.code}, signal ${exit.signal}${exit.forced ? ', killed' : ''})`,
      );
    await fs.rm(state.generationDataDir, { recursive: true, force: true });
    checkpoint();
  }
  return generation;
}
