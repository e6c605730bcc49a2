import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/helpers/wait.js';
import { isAlive, superviseEmbeddedPostgres } from './embedded-supervisor.js';

/** The pid of a process that has exited (and been reaped). */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('the embedded PostgreSQL supervisor', () => {
  let dir: string;
  let pidFile: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'statehouse-supervisor-'));
    pidFile = path.join(dir, 'postmaster.pid');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('tells a live process from a dead one', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(deadPid())).toBe(false);
  });

  it('restarts a dead server, says so each time, and gives up after the limit', async () => {
    await writeFile(pidFile, `${deadPid()}\n`);
    const lines: string[] = [];
    let starts = 0;
    const supervisor = superviseEmbeddedPostgres({
      pidFile,
      address: '127.0.0.1:5999',
      log: (line) => lines.push(line),
      checkEveryMs: 5,
      maxRestarts: 3,
      windowMs: 60_000,
      // Each "restarted" server dies at once.
      start: async () => {
        starts++;
        await writeFile(pidFile, `${deadPid()}\n`);
      },
    });
    await waitUntil(() => lines.some((l) => l.includes('giving up')), 'giving up', { intervalMs: 10 });
    await supervisor.stop();
    expect(starts).toBe(3);
    expect(lines.filter((l) => /exited unexpectedly; restarting it \(restart \d of at most 3 within 1 minutes\)/.test(l))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('embedded PostgreSQL restarted on 127.0.0.1:5999'))).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/is gone again after 3 restarts within 1 minutes: giving up; requests that need the database get 503/);
  });

  it('keeps trying when a restart fails (the old server still holds its shared memory)', async () => {
    await writeFile(pidFile, `${deadPid()}\n`);
    const lines: string[] = [];
    let attempts = 0;
    const supervisor = superviseEmbeddedPostgres({
      pidFile,
      address: '127.0.0.1:5999',
      log: (line) => lines.push(line),
      checkEveryMs: 5,
      start: async () => {
        if (++attempts < 3) throw new Error('pre-existing shared memory block is still in use');
        await writeFile(pidFile, `${process.pid}\n`);
      },
    });
    await waitUntil(() => lines.some((l) => l.includes('restarted on')), 'the restart', { intervalMs: 10 });
    await supervisor.stop();
    expect(attempts).toBe(3);
    expect(lines.filter((l) => l.includes('restarting it'))).toHaveLength(1);
  });
});
