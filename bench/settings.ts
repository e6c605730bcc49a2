/** The bench's settings (BENCH_* environment variables, see run.ts), goals and fixed parameters. */
import path from 'node:path';
import { REGION_CODES } from '../src/catalog/regions.js';
import { REPO_ROOT } from './children.js';

function envNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`${name} must be a number from ${min} to ${max} (got '${raw}')`);
  return value;
}

export const SECONDS = envNumber('BENCH_SECONDS', 10, 1, 3600);
export const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 3, 0, 600);
export const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 50, 1, 10_000));
export const POOL_SIZE = Math.round(envNumber('BENCH_DATABASE_POOL_SIZE', 10, 1, 200));
export const DATABASE_URL = process.env.BENCH_DATABASE_URL?.trim() || null;
export const TASKS_PER_ENTITY = Math.round(envNumber('BENCH_TASKS_PER_ENTITY', 300, 1, 5000));
export const TASK_ENTITIES = Math.round(envNumber('BENCH_TASK_ENTITIES', 10_000, 0, 1_000_000));
export const MAIL_ITEMS = Math.round(envNumber('BENCH_MAIL_ITEMS', 100, 1, 10_000));
/** The automations step (h): sandbox automations started through the API, one entity each (0 skips it), and the starts in flight. */
export const AUTOMATIONS = Math.round(envNumber('BENCH_AUTOMATIONS', 1000, 0, 100_000));
export const AUTOMATION_CONCURRENCY = Math.round(envNumber('BENCH_AUTOMATION_CONCURRENCY', 10, 1, 1000));
/** The webhooks step (i): events produced for (b), writers (one entity each) producing them; 0 events skips (b). BENCH_WEBHOOKS=0 skips i in the full run. */
export const WEBHOOKS = Math.round(envNumber('BENCH_WEBHOOKS', 1, 0, 1)) === 1;
export const WEBHOOK_EVENTS = Math.round(envNumber('BENCH_WEBHOOK_EVENTS', 10_000, 0, 1_000_000));
export const WEBHOOK_WRITERS = Math.round(envNumber('BENCH_WEBHOOK_WRITERS', 10, 1, 1000));
const PROFILE_KEYS = ['a', 'b', 'c1', 'c2', 'd0', 'd1', 'd2', 'f0', 'f1', 'g0', 'g1', 'e'] as const;
export const CPU_PROFILE = new Set(
  (process.env.BENCH_CPU_PROFILE ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .flatMap((k) => (k === 'all' ? [...PROFILE_KEYS] : [k])),
);
for (const key of CPU_PROFILE) {
  if (!(PROFILE_KEYS as readonly string[]).includes(key))
    throw new Error(`BENCH_CPU_PROFILE: unknown target '${key}' (use ${PROFILE_KEYS.join(', ')} or all)`);
}
export const PROFILE_DIR = path.join(REPO_ROOT, 'bench', 'results', 'profiles');

/** The goal: GET /legal_entity at ≥ 75 % of the bare-pg floor's requests/s, with p99 ≤ 25 ms. */
export const GOAL = { minRatioToBarePg: 0.75, maxP99Ms: 25 };
/** The webhooks goal: the write (PUT /v2/regions/{code}) with an enabled endpoint at ≥ 90 % of its requests/s without one. */
export const WEBHOOKS_GOAL = { minWriteRatio: 0.9 };
/** The tasks goal: GET /tasks (d1) and GET /v2/tasks (d2) of an entity with ~300 tasks at p99 ≤ 30 ms. */
export const TASKS_GOAL = { maxP99Ms: 30 };
/** The generation goal: rollForwardAll at ≥ 1 000 entities/s, first run and re-run alike. */
export const GENERATION_GOAL = { minEntitiesPerSecond: 1000 };

/** The d targets' requests (the entity comes from the token). */
export const TASKS_PATH = '/tasks?status=todo&status=in-progress&tags=payroll-setup&tags=foreign-qualification&tags=sos-report';
export const TASKS_V2_PATH = '/v2/tasks?statuses=todo&categories=payroll&categories=registration&page_size=100';
/** The order in which the d entity gets locations (employees and an office in each): big states first, then the rest. */
export const TASK_LOCATION_ORDER = [
  ...new Set(['CA', 'NY', 'TX', 'FL', 'IL', 'WA', 'MA', 'NJ', 'PA', 'GA', 'CO', 'VA', 'NC', 'OH', 'MI', 'AZ', ...REGION_CODES]),
];

/** The f and g targets' mail PDFs: size of each (bytes, about), and the states and senders they come from, in turn. */
export const MAIL_PDF_BYTES = 100 * 1024;
export const MAIL_SOURCES = [
  { region: 'CA', sender: 'California Secretary of State' },
  { region: 'NY', sender: 'New York Department of Labor' },
  { region: 'DE', sender: 'Delaware Division of Corporations' },
  { region: 'TX', sender: 'Texas Comptroller of Public Accounts' },
  { region: 'WA', sender: 'Washington Employment Security Department' },
] as const;
/** The g1 request (the entity comes from the token): every item, newest first. */
export const MAIL_V2_PATH = '/v2/mail';
/**
 * The part of a mail listing made fresh at every request: each item's file_url is signed with an
 * expiry of now + FILE_URL_TTL_SECONDS (whole seconds), so the body changes every second. g1's check
 * compares bodies with it blanked out (the signature stays 43 characters, the expiry 10 digits).
 */
const FILE_URL_SIGNATURE = /expires=\d+&signature=[A-Za-z0-9_-]{43}/g;
export const unsigned = (body: string) => body.replace(FILE_URL_SIGNATURE, 'expires=…&signature=…');

/** Above this much CPU (% of one core) busy outside the bench's own processes, a run is flagged as disturbed. */
export const NOISY_OTHER_CPU_PERCENT = 30;

export const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'latest.json');
const TAG = '[bench]';
export const say = (message: string) => process.stderr.write(`${TAG} ${message}\n`);
