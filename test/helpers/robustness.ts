import type { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createOperatorsService } from '../../src/modules/operators/operators.service.js';
import {
  bearer,
  createPlatformWithEntity,
  createTestApp,
  VALID_SIGNUP_EMBEDDED,
  VALID_SIGNUP_HOSTED,
  VALID_SIGNUP_V2,
  type TestApp,
} from './app.js';

/** Inputs and checks shared by the robustness-*.test.ts files. */

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export const EMBEDDED = VALID_SIGNUP_EMBEDDED;
export const V2 = { ...VALID_SIGNUP_V2 };
export const ADDRESS = {
  address_line_1: '1 Main St',
  address_line_2: null,
  city: 'Springfield',
  state: 'IL',
  country: 'US',
  postal_code: '62701',
};
export const HOSTED = VALID_SIGNUP_HOSTED;

/** Error-shape check shared by every test: < 500, JSON, `detail`, no stack trace. */
export function expectHandled(res: LightMyRequestResponse, opts: { platform?: boolean; method?: Method } = {}) {
  const where = `${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  expect(res.body, 'no stack trace').not.toMatch(/\n\s+at\s|node_modules|\.ts:\d+|\/work\//);
  if (res.statusCode < 400 || opts.method === 'HEAD') return;
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body, where).toHaveProperty('detail');
  expect(typeof body.detail === 'string' || Array.isArray(body.detail), where).toBe(true);
  if (opts.platform) expect(typeof body.message, where).toBe('string');
}

export const isPlatformRoute = (url: string) => url.split('?')[0] === '/v2/signup';

export async function countEntities(t: TestApp): Promise<number> {
  const row = await t.db
    .selectFrom('legal_entities')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** mulberry32: small, fast, reproducible. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

export interface RobustnessRequest {
  method?: Method;
  url: string;
  auth?: 'key' | 'bearer' | 'operator' | 'none';
  headers?: Record<string, string>;
  payload?: string | Buffer | Readable;
}

/**
 * The apps the robustness tests send to: `t` (default body limit, 1 MiB) with a platform, an entity, its token,
 * an operator key and a CA agency account; with `small`, a second app with a 4 KiB body limit (and its own
 * platform, entity and token). `send` picks the credentials of the app it is given.
 */
export async function startRobustnessApps(options: { small?: boolean } = {}) {
  const [t, small] = await Promise.all([createTestApp(), options.small ? createTestApp({ bodyLimitBytes: 4096 }) : null]);
  const { apiKey, entityId, token } = await createPlatformWithEntity(t);
  const { apiKey: smallKey, token: smallToken } = small ? await createPlatformWithEntity(small) : { apiKey: '', token: '' };
  const operatorKey = (await createOperatorsService(t.db).createKey('fuzz')).key;
  const agencyAccountId = (
    await t.app.services.accounts.createAccount(entityId, { region_code: 'CA', agency_id: 'ca-edd', name: 'EDD account' })
  ).id;

  const send = (app: TestApp, req: RobustnessRequest) => {
    const headers: Record<string, string> = {};
    const auth = req.auth ?? 'none';
    if (auth === 'operator') headers.authorization = `Bearer ${operatorKey}`;
    if (auth === 'key') headers.authorization = app === small ? smallKey : apiKey;
    if (auth === 'bearer') Object.assign(headers, bearer(app === small ? smallToken : token));
    return app.app.inject({ method: req.method ?? 'POST', url: req.url, headers: { ...headers, ...req.headers }, payload: req.payload });
  };
  const sendJson = (app: TestApp, method: Method, url: string, auth: 'key' | 'bearer' | 'none', body: unknown) =>
    send(app, { method, url, auth, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  return {
    t,
    /** The 4 KiB app; only when started with `small: true`. */
    small: small as TestApp,
    entityId,
    agencyAccountId,
    send,
    sendJson,
    close: async () => {
      await Promise.all([t.close(), small?.close()]);
    },
  };
}

export type RobustnessApps = Awaited<ReturnType<typeof startRobustnessApps>>;
