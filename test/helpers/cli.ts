import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TEST_BUILD_DIR } from './test-build.js';

/**
 * The CLI as built from the current sources for this test run (test/helpers/test-build.ts, by the global
 * setup), from its entry (src/cli/statehouse.ts); test/compiled.test.ts runs the real build, bin/statehouse.js.
 */
export const CLI = path.join(TEST_BUILD_DIR, 'src', 'cli', 'statehouse.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `statehouse` CLI in a process of its own; `stdin`, when given, is piped in (e.g. secrets). */
export function runCli(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `statehouse serve` and waits until it listens. */
export function startServe(env: Record<string, string | undefined>, args: string[] = []): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]!, output: () => out, exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}
