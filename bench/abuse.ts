/**
 * Abuse scenario (`BENCH_SCENARIO=abuse npm run bench`): how well Statehouse serves its real clients while
 * unauthenticated clients abuse it. Four connections send deeply nested ~1 MB JSON bodies without credentials,
 * four more guess access tokens; meanwhile a well-behaved client (from another loopback address, as a real
 * client would be) measures `/healthz` and an authenticated `GET /legal_entity`. Target: p99 ≤ 50 ms each.
 * Writes bench/results/abuse-latest.json.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT, startChild, stopAllChildren } from './children.js';

const SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 20);
const BASELINE_SECONDS = Number(process.env.BENCH_ABUSE_BASELINE_SECONDS ?? 10);
/** Requests per second of the measuring client, per path. */
const PROBE_RATE = 25;
const TARGET_P99_MS = 50;
/** The measuring client's source address: abusers and clients are different addresses in real life. */
const CLIENT_ADDRESS = '127.0.0.2';
const NESTED_BODY = '['.repeat(512 * 1024) + ']'.repeat(512 * 1024); // 1 MiB, 524,288 levels
const say = (message: string) => process.stderr.write(`[bench:abuse] ${message}\n`);

interface Latencies {
  count: number;
  errors: number;
  statuses: Record<number, number>;
  p50: number;
  p99: number;
  max: number;
}

function summarize(samples: number[], statuses: Record<number, number>, errors: number): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { count: sorted.length, errors, statuses, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? NaN) };
}

/** A paced client: PROBE_RATE requests/s to each path, one at a time per path, from CLIENT_ADDRESS. */
async function probe(baseUrl: string, paths: Array<{ path: string; headers: Record<string, string> }>, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, localAddress: CLIENT_ADDRESS });
  const until = Date.now() + seconds * 1000;
  const results = await Promise.all(
    paths.map(async ({ path: p, headers }) => {
      const samples: number[] = [];
      const statuses: Record<number, number> = {};
      let errors = 0;
      for (let next = Date.now(); Date.now() < until; next += 1000 / PROBE_RATE) {
        const wait = next - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const started = performance.now();
        try {
          const status = await new Promise<number>((resolve, reject) => {
            const req = http.get(`${baseUrl}${p}`, { agent, headers }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            });
            req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
            req.on('error', reject);
          });
          samples.push(performance.now() - started);
          statuses[status] = (statuses[status] ?? 0) + 1;
        } catch {
          errors++;
        }
      }
      return [p, summarize(samples, statuses, errors)] as const;
    }),
  );
  agent.destroy();
  return Object.fromEntries(results);
}

function load(options: autocannon.Options, onStatus: (status: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))).on('response', (_client, status) => onStatus(status));
  });
}

function abuse(baseUrl: string, seconds: number) {
  const statuses: Record<'nested' | 'guessing', Record<number, number>> = { nested: {}, guessing: {} };
  const count = (kind: 'nested' | 'guessing') => (status: number) => {
    statuses[kind][status] = (statuses[kind][status] ?? 0) + 1;
  };
  const nested = load(
    {
      url: `${baseUrl}/v2/regions`,
      method: 'POST',
      connections: 4,
      duration: seconds,
      timeout: 30,
      headers: { 'content-type': 'application/json' },
      body: NESTED_BODY,
    },
    count('nested'),
  );
  const guessing = load(
    {
      url: `${baseUrl}/legal_entity`,
      connections: 4,
      duration: seconds,
      timeout: 30,
      // A fresh random token per request.
      requests: [
        {
          setupRequest: (request: Record<string, unknown>) => ({
            ...request,
            headers: { authorization: `Bearer sh_at_${randomBytes(24).toString('base64url')}` },
          }),
        },
      ],
    } as autocannon.Options,
    count('guessing'),
  );
  return { done: Promise.all([nested, guessing]), statuses };
}

export async function runAbuseScenario(): Promise<number> {
  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'statehouse-abuse-'));
  await fs.chmod(tempDir, 0o755);
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      STATEHOUSE_DATA_DIR: path.join(tempDir, 'data'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ACCESS_TOKEN_TTL_SECONDS: '3600',
    };
    delete env.DATABASE_URL;
    delete env.PUBLIC_BASE_URL;
    const sh = (
      await startChild<{ url: string; apiKey: string; legalEntityId: string }>('statehouse', 'bench/statehouse-server.ts', env, 180_000)
    ).info;
    const auth = await fetch(`${sh.url}/accounts/auth`, {
      method: 'POST',
      headers: { authorization: sh.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ legal_entity_id: sh.legalEntityId }),
    });
    const { access_token: token } = (await auth.json()) as { access_token: string };
    const paths: Array<{ path: string; headers: Record<string, string> }> = [
      { path: '/healthz', headers: {} },
      { path: '/legal_entity', headers: { authorization: `Bearer ${token}` } },
    ];

    say(`baseline: ${BASELINE_SECONDS} s of ${PROBE_RATE} req/s to each of ${paths.map((p) => p.path).join(', ')}`);
    const baseline = await probe(sh.url, paths, BASELINE_SECONDS);
    say(`under abuse: 4 connections of nested 1 MiB bodies + 4 of token guessing, ${SECONDS} s`);
    const abusers = abuse(sh.url, SECONDS + 2);
    const underAbuse = await probe(sh.url, paths, SECONDS);
    const [nested, guessing] = await abusers.done;
    const report = {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      node: process.version,
      seconds: SECONDS,
      targetP99Ms: TARGET_P99_MS,
      baseline,
      underAbuse,
      abusers: {
        nested: { requests: nested.requests.sent, statuses: abusers.statuses.nested, errors: nested.errors, bodyBytes: NESTED_BODY.length },
        guessing: { requests: guessing.requests.sent, statuses: abusers.statuses.guessing, errors: guessing.errors },
      },
    };
    await fs.mkdir(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
    await fs.writeFile(path.join(REPO_ROOT, 'bench', 'results', 'abuse-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    const line = (label: string, l: Latencies) =>
      `${label.padEnd(28)} n=${String(l.count).padStart(5)}  p50 ${String(l.p50).padStart(6)} ms  p99 ${String(l.p99).padStart(6)} ms  max ${String(l.max).padStart(6)} ms  ${JSON.stringify(l.statuses)}`;
    for (const p of paths) {
      process.stdout.write(`${line(`${p.path} baseline`, baseline[p.path]!)}\n${line(`${p.path} under abuse`, underAbuse[p.path]!)}\n`);
    }
    process.stdout.write(
      `abusers: nested ${JSON.stringify(report.abusers.nested)}\n         guessing ${JSON.stringify(report.abusers.guessing)}\n`,
    );
    const ok = paths.every((p) => underAbuse[p.path]!.p99 <= TARGET_P99_MS && underAbuse[p.path]!.errors === 0);
    process.stdout.write(`target p99 ≤ ${TARGET_P99_MS} ms under abuse: ${ok ? 'met' : 'NOT met'}\n`);
    return ok ? 0 : 1;
  } finally {
    await stopAllChildren();
    await fs.rm(tempDir, { recursive: true, force: true });
  }
}
