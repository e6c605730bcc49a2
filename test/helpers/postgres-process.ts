import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The embedded postmaster's pid from `<dataDir>/postgres/postmaster.pid`, or null when it is not running. */
export const postmasterPid = async (dataDir: string) => {
  try {
    return Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return null;
  }
};

/** Whether a process runs; a zombie (exited, not yet reaped by init) counts as gone. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
