/**
 * The compiled build end to end: `npm run build`, then `npm start` (plain node on dist/, no tsx)
 * with its embedded PostgreSQL, stopped by SIGTERM to npm and by a Ctrl-C to the process group:
 * every time, no process may be left (node and PostgreSQL gone), and the demo key stays the same.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIMIT_MS = 60_000;

interface NpmStart {
  npm: ChildProcess;
  url: string;
  apiKey: string;
  entityId: string;
  nodePid: number;
  postmasterPid: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped) counts as gone.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function until<T>(
  what: string,
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  output?: () => string,
): Promise<T> {
  const deadline = Date.now() + LIMIT_MS;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${output ? `:\n${output()}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const childrenOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** `npm start` on its own data directory; `groupLeader` puts npm at the head of a new process group (a terminal's job). */
async function npmStart(dataDir: string, groupLeader: boolean): Promise<NpmStart> {
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      STATEHOUSE_DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORT: '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
      PUBLIC_BASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: groupLeader,
  });
  let out = '';
  npm.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  npm.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const output = () => out;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    npm.on('exit', (code, signal) => r({ code, signal })),
  );
  const url = await until('the listening line', () => /listening on (http:\/\/\S+)/.exec(out)?.[1], output);
  const apiKey = await until('the demo key', () => /^sh_key_\S+$/m.exec(out)?.[0], output);
  const entityId = /Demo legal entity \(active[^:]*: (le_\w+)/.exec(out)![1]!;
  const [nodePid] = childrenOf(npm.pid!);
  const postmasterPid = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return { npm, url, apiKey, entityId, nodePid: nodePid!, postmasterPid, output, exited };
}

/** Everything of one `npm start` is gone: npm, node, the postmaster. */
async function expectAllGone(started: NpmStart) {
  await until(
    'npm, node and PostgreSQL to exit',
    () => !alive(started.npm.pid!) && !alive(started.nodePid) && !alive(started.postmasterPid),
    started.output,
  );
  expect(started.output()).toContain('shutdown complete');
}

describe('the compiled build under npm start', { timeout: 180_000 }, () => {
  let root: string;
  let dataDir: string;
  let keyOfFirstRun: string;
  const running: NpmStart[] = [];

  beforeAll(async () => {
    // The build `npm ci` runs (prepare); incremental, so quick when dist/ is current.
    await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT });
    root = await mkdtemp(path.join(os.tmpdir(), 'statehouse-compiled-'));
    await chmod(root, 0o755);
    dataDir = path.join(root, 'data');
  }, 300_000);
  afterAll(async () => {
    for (const started of running) {
      for (const pid of [started.nodePid, started.npm.pid!]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      if (alive(started.postmasterPid)) process.kill(started.postmasterPid, 'SIGQUIT');
    }
    await rm(root, { recursive: true, force: true });
  });

  it('runs compiled JavaScript with plain node, serves the catalog and assets, and SIGTERM to npm stops everything', async () => {
    const started = await npmStart(dataDir, false);
    running.push(started);
    // npm execs node directly (no shell in between), on the compiled binary, without tsx.
    const cmdline = readFileSync(`/proc/${started.nodePid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(cmdline.slice(1)).toEqual(['--max-semi-space-size=4', '--max-old-space-size=256', 'bin/statehouse.js', 'serve', '--demo']);
    expect((await fetch(`${started.url}/readyz`)).status).toBe(200);
    const css = await fetch(`${started.url}/hosted/assets/statehouse.css`);
    expect(css.status).toBe(200);
    expect((await css.text()).length).toBeGreaterThan(100);
    const auth = await fetch(`${started.url}/accounts/auth`, {
      method: 'POST',
      headers: { authorization: started.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ legal_entity_id: started.entityId }),
    });
    const { access_token } = (await auth.json()) as { access_token: string };
    const tasks = await fetch(`${started.url}/v2/tasks`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(tasks.status).toBe(200); // planned from the catalog read from catalog/
    expect(((await tasks.json()) as unknown[]).length).toBeGreaterThan(0);
    keyOfFirstRun = started.apiKey;

    started.npm.kill('SIGTERM');
    await expectAllGone(started);
  });

  it('a Ctrl-C to the process group stops everything, and the demo key is the one printed before', async () => {
    const started = await npmStart(dataDir, true);
    running.push(started);
    expect(started.apiKey).toBe(keyOfFirstRun);
    const signup = await fetch(`${started.url}/v2/signup`, {
      method: 'POST',
      headers: { authorization: started.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        user_email: 'a@example.com',
        business_name: 'Kept Key Inc',
        entity_type: 'c_corp',
        tax_class: 'corp',
        incorporation_region: 'DE',
        incorporated_date: '2022-01-15',
      }),
    });
    expect(signup.status).toBe(200);

    // Both npm and node get the SIGINT (and npm forwards its own): one Ctrl-C, not two.
    process.kill(-started.npm.pid!, 'SIGINT');
    await expectAllGone(started);
  });

  it('the binary stopped by SIGTERM while still starting finishes the start, then stops everything', async () => {
    const child = spawn(process.execPath, ['bin/statehouse.js', 'serve'], {
      cwd: ROOT,
      env: { ...process.env, STATEHOUSE_DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // The database is up, the server not yet listening: a signal now used to leave PostgreSQL running.
    await until(
      'the embedded PostgreSQL to start',
      () => out.includes('embedded PostgreSQL started'),
      () => out,
    );
    const postmasterPid = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('shutdown complete');
    await until(
      'PostgreSQL to exit',
      () => !alive(postmasterPid),
      () => out,
    );
  });
});
