import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the tests' build of src/ goes; test/helpers/cli.ts runs the CLI from here. */
export const TEST_BUILD_DIR = path.join(ROOT, 'test-output', 'build');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * Tests that spawn `statehouse` processes run plain JavaScript, as production does, but always of the
 * current sources: before every run each file of src/ is transpiled (esbuild, file by file, no bundling,
 * well under a second). Starting a process through tsx instead costs seconds of transformation on a busy
 * 2-core machine, and the suite starts dozens. Type checking stays with `npm run typecheck`; the real
 * build (`npm run build`, tsc into dist/) is run end to end by test/compiled.test.ts.
 */
export async function buildForTests(): Promise<void> {
  rmSync(TEST_BUILD_DIR, { recursive: true, force: true });
  mkdirSync(TEST_BUILD_DIR, { recursive: true });
  await build({
    entryPoints: sources(path.join(ROOT, 'src')),
    outbase: ROOT,
    outdir: TEST_BUILD_DIR,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'error',
  });
}
