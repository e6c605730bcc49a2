import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, superviseEmbeddedPostgres } from './embedded-supervisor.js';

/** The pid of a process that has exited (and been reaped). */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

const until = async (what: string, check: () => boolean) => {
  for (const deadline = Date.now() + 60_000; !check(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

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
      pidFile, address: '127.0.0.1:5999', log: (line) => lines.push(line), checkEveryMs: 5, maxRestarts: 3, windowMs: 60_000,
      // Each "restarted" server dies at once.
      start: async () => {
        starts++;
        await writeFile(pidFile, `${deadPid()}\n`);
      },
    });
    await until('giving up', () => lines.some((l) => l.includes('giving up')));
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
      pidFile, address: '127.0.0.1:5999', log: (line) => lines.push(line), checkEveryMs: 5,
      start: async () => {
        if (++attempts < 3) throw new Error('pre-existing shared memory block is still in use');
        await writeFile(pidFile, `${process.pid}\n`);
      },
    });
    await until('the restart', () => lines.some((l) => l.includes('restarted on')));
    await supervisor.stop();
    expect(attempts).toBe(3);
    expect(lines.filter((l) => l.includes('restarting it'))).toHaveLength(1);
  });
});
