import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Catalog } from '../../src/catalog/catalog.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { startJobQueue, type JobQueue, type JobSender } from '../../src/jobs/queue.js';
import { createPlatformsRepository } from '../../src/modules/platforms/platforms.repository.js';
import { createPlatformsService } from '../../src/modules/platforms/platforms.service.js';
import { createTestDatabase, dropTestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  url: string;
  config: Config;
  /** The real job queue, when started with `jobs: true`. */
  jobs: JobQueue | null;
  /** Moves the app's clock (tokens, session links) forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/** A fixed login-vault key, so tests never create a key file. */
export const TEST_VAULT_KEY = Buffer.alloc(32, 7);

/** A job queue that accepts and drops every job (tests that only need a start to be enqueued). */
export const discardingJobs: JobSender = { send: async () => {}, sendMany: async () => {} };

export interface TestAppOptions {
  /**
   * `true`: a real durable job queue (pg-boss) on the test database, running the app's job definitions
   * (stopped by `close`); a JobSender: used as the app's queue (e.g. one that records what is sent).
   */
  jobs?: boolean | JobSender;
  /** The catalog the app plans with (default: catalog/), e.g. a test fixture's. */
  catalog?: Catalog;
}

/** A Statehouse app over its own fresh database, exercised through `app.inject`. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  logStream?: { write(line: string): void },
  options: TestAppOptions = {},
): Promise<TestApp> {
  const cluster = inject('testCluster');
  const url = await createTestDatabase(cluster);
  // No load shedding unless a test asks for it (test/refusal.test.ts): on a busy CI machine a shed 503 would fail
  // tests of something else.
  const noShedding = { maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, maxHeapUsedShare: 0 };
  const config = loadConfig({}, { publicBaseUrl: 'http://statehouse.test', databaseUrl: url, loadShedding: noShedding, ...overrides });
  const db = createDb(url, 5);
  let offset = 0;
  const queue: JobQueue | null = options.jobs === true ? await startJobQueue(url, (line) => logStream?.write(`${line}\n`)) : null;
  const jobs = queue ?? (typeof options.jobs === 'object' ? options.jobs : undefined);
  const app = await buildApp({
    config,
    db,
    logger: logStream ? { stream: logStream } : false,
    now: () => Date.now() + offset,
    vaultKeys: [TEST_VAULT_KEY],
    ...(jobs && { jobs }),
    ...(options.catalog && { catalog: options.catalog }),
  });
  if (queue) await queue.work(app.services.jobDefinitions);
  // Like the server: where the queue runs, the outbox's fan-out to webhook endpoints runs too.
  const stopFanOut = queue ? app.services.webhookDeliveries.startFanOut((line) => logStream?.write(`${line}\n`)) : null;
  return {
    app,
    db,
    url,
    config,
    jobs: queue,
    advance: (ms) => {
      offset += ms;
    },
    close: async () => {
      await stopFanOut?.();
      await app.close();
      await queue?.stop();
      await db.destroy();
      await dropTestDatabase(cluster.adminUrl, url);
    },
  };
}

/** What the operator CLI does: a platform and its API key. */
export async function createPlatform(db: Db, name = 'Acme Payroll') {
  const service = createPlatformsService(createPlatformsRepository(db));
  const { platform, apiKey } = await service.create(name);
  return { platformId: platform.id, apiKey: apiKey.key, apiKeyId: apiKey.id, service };
}

/** A valid body of POST /accounts/signup (the unversioned, embedded signup). */
export const VALID_SIGNUP_EMBEDDED = {
  user_email: 'founder@example.com',
  business_name: 'Example Widgets Inc',
  entity_type: 'c_corp',
  tax_classification: 'corp',
  incorporation_location: 'DE',
  incorporation_date: '2022-01-15',
};

/** A valid body of POST /accounts/signup/sessions (the hosted signup). */
export const VALID_SIGNUP_HOSTED = {
  business_name: 'Example Widgets Inc',
  user_email: 'founder@example.com',
  callback_url: 'https://platform.example/done',
};

export const VALID_SIGNUP_V2 = {
  user_email: 'founder@example.com',
  business_name: 'Example Widgets Inc',
  entity_type: 'c_corp',
  tax_class: 'corp',
  incorporation_region: 'DE',
  incorporated_date: '2022-01-15',
} as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely unless they name a type
export const json = <T = any>(response: LightMyRequestResponse): T => response.json() as T;

/** Signs up an entity with /v2/signup and returns its id. */
export async function signupEntity(app: FastifyInstance, apiKey: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/v2/signup',
    headers: { authorization: apiKey },
    payload: { ...VALID_SIGNUP_V2, ...body },
  });
  if (response.statusCode !== 200) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  return json(response).legal_entity_id;
}

export async function accessToken(app: FastifyInstance, apiKey: string, legalEntityId: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/accounts/auth',
    headers: { authorization: apiKey },
    payload: { legal_entity_id: legalEntityId },
  });
  if (response.statusCode !== 200) throw new Error(`auth failed: ${response.statusCode} ${response.body}`);
  return json(response).access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The usual fixture: an entity the platform of `apiKey` signs up with /v2/signup (`body` overrides), and its access token. */
export async function signupWithToken(
  app: FastifyInstance,
  apiKey: string,
  body: Record<string, unknown> = {},
): Promise<{ entityId: string; token: string }> {
  const entityId = await signupEntity(app, apiKey, body);
  return { entityId, token: await accessToken(app, apiKey, entityId) };
}

/** A platform (as the operator CLI creates it) with one signed-up entity and its access token. */
export async function createPlatformWithEntity(
  t: { app: FastifyInstance; db: Db },
  platformName?: string,
  body: Record<string, unknown> = {},
) {
  const platform = await createPlatform(t.db, platformName);
  return { ...platform, ...(await signupWithToken(t.app, platform.apiKey, body)) };
}
