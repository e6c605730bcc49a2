/**
 * `statehouse serve --demo` stopped by a signal while it is still seeding its demo data (right after it
 * listens): the shutdown closes the database under the seeding, and must still stop PostgreSQL and exit 0
 * instead of failing on the closed pool and leaving PostgreSQL running.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from './helpers/cli.js';
import { waitUntil } from './helpers/wait.js';
import { alive, postmasterPid } from './helpers/postgres-process.js';

describe('serve --demo and a signal during the demo seeding', { timeout: 180_000 }, () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'statehouse-demo-signal-'));
    await chmod(root, 0o755); // the embedded PostgreSQL runs as `postgres` when we are root
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('SIGTERM as soon as it listens: exit 0, PostgreSQL stopped, no error', async () => {
    const dataDir = path.join(root, 'data');
    const server = await startServe({ STATEHOUSE_DATA_DIR: dataDir, DATABASE_URL: '', PUBLIC_BASE_URL: 'http://statehouse.test' }, [
      '--demo',
    ]);
    // Listening comes before the demo is seeded: this signal lands while the seeding runs (or just after).
    const postmaster = await postmasterPid(dataDir);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/^error:/m);
    expect(server.output()).toMatch(/shutdown complete/);
    expect(postmaster).not.toBeNull();
    await waitUntil(() => !alive(postmaster!), `postmaster ${postmaster} to exit`);
    expect(await postmasterPid(dataDir)).toBeNull();
  });
});
