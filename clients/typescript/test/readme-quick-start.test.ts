// The root README's "The same with the TypeScript SDK" script, run as written (only its import pointed at this
// package's sources) with tsx against a live server. An outside component (a listening server, a child process):
// the embedded-PostgreSQL lane only.
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideComponentsLane } from '../../../test/helpers/lanes.js';
import { startLiveServer, type LiveServer } from './live-server.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** The ```ts block of the README's SDK section. */
export async function readmeScript(): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The same with the TypeScript SDK'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error('README.md has no ```ts block under "The same with the TypeScript SDK"');
  return match[1];
}

function run(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [file], { env: { ...process.env, ...env }, cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!outsideComponentsLane)("the README's SDK quick start", () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer();
  });
  afterAll(async () => server?.close());

  it('runs as written against a live server', async () => {
    const script = (await readmeScript()).replace(
      "'@statehouse/client'",
      JSON.stringify(path.join(ROOT, 'clients/typescript/src/index.ts')),
    );
    const dir = path.join(ROOT, 'test-output', 'sdk-readme');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `first-calls-${process.pid}.ts`);
    await writeFile(file, script);
    const result = await run(file, { BASE: server.baseUrl, KEY: server.apiKey });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^le_\w+ http:\/\/\S+\/hosted\/s\/\S+$/);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.slice(1, -1).filter((line) => !/^task_\w+ (requirement|question) [a-z-]+ .+/.test(line))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^422 \[ 'body', '\w+' \] .+ \S+$/);
  });
});
