import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most test time is spent waiting on PostgreSQL, spawned processes and Chromium, not on this process's CPU:
// run more files at once than vitest's default (cores - 1, i.e. one file at a time on a 2-core machine).
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, Math.min(4, availableParallelism() + 1));

export default defineConfig({
  test: {
    // clients/typescript/test: the SDK's tests, against a live server (docs/decisions/0088-typescript-sdk.md).
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'clients/typescript/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    maxWorkers: workers,
    // Limits are safety nets, never the thing a test waits for: tests poll conditions, and a busy machine
    // may be several times slower than a quiet one.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
