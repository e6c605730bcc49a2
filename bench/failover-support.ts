// The failover scenario's means: a second `statehouse serve`, JSON calls, waiting on a condition, and the
// automations it starts through both processes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { BENCH_FILINGS } from './automations-seed.js';
import { REPO_ROOT, SERVER_NODE_FLAGS } from './children.js';

const EDD = BENCH_FILINGS[0];

/** `statehouse serve` (the compiled binary under `npm run bench`, the sources under tsx); resolves with its URL. */
export function startServe(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const compiled = import.meta.url.endsWith('.js');
  const args = compiled
    ? [...SERVER_NODE_FLAGS, path.join(REPO_ROOT, 'bin', 'statehouse.js'), 'serve']
    : [...SERVER_NODE_FLAGS, '--import', 'tsx', path.join(REPO_ROOT, 'src', 'cli', 'statehouse.ts'), 'serve'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`statehouse serve exited (${code ?? signal}) before listening: ${out.slice(-2000)}`)),
    );
  });
}

export async function call(url: string, method: string, authorization: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { authorization, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

export async function waitFor<T>(probe: () => Promise<T | null | false>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sandbox automations of the first bench filing, one new entity each, started in turn through each process. */
export async function startAutomations(processes: { url: string }[], apiKey: string, count: number): Promise<string[]> {
  const automationIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const { url } = processes[i % processes.length]!;
    const { legal_entity_id: entityId } = (await call(`${url}/v2/signup`, 'POST', apiKey, {
      user_email: 'owner@failover.example',
      business_name: `Failover Automation ${i} Inc`,
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2022-01-15',
    })) as { legal_entity_id: string };
    const { access_token: token } = (await call(`${url}/accounts/auth`, 'POST', apiKey, { legal_entity_id: entityId })) as {
      access_token: string;
    };
    await call(`${url}/locations/CA`, 'PUT', `Bearer ${token}`, { config: { has_employees: true, has_physical_location: true } });
    const tasks = (await call(`${url}/tasks`, 'GET', `Bearer ${token}`)) as { id: string; definition: { id: string } }[];
    const task = tasks.find((t) => t.definition.id === EDD.requirementId);
    if (!task) throw new Error(`no ${EDD.requirementId} task`);
    automationIds.push(((await call(`${url}/tasks/${task.id}/automate`, 'POST', `Bearer ${token}`, EDD.input)) as { id: string }).id);
  }
  return automationIds;
}
