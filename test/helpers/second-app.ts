import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { TEST_VAULT_KEY, type TestApp } from './app.js';

export interface SecondApp {
  app: FastifyInstance;
  db: Db;
  /** Moves this app's clock (tokens, versions written by it) by `ms`; another process's clock may differ. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * Another Statehouse process on the database of `first`: its own pool, caches, instance-key cache and rate-limit
 * counters, as a second `statehouse serve` would have (in-process, so tests can inject through both).
 */
export async function createSecondApp(
  first: Pick<TestApp, 'url'>,
  overrides: Partial<Config> = {},
  options: { vaultKeys?: Buffer[] } = {},
): Promise<SecondApp> {
  const config = loadConfig({}, { publicBaseUrl: 'http://statehouse.test', databaseUrl: first.url, ...overrides });
  const db = createDb(first.url, 5);
  let offset = 0;
  try {
    const app = await buildApp({
      config,
      db,
      logger: false,
      now: () => Date.now() + offset,
      vaultKeys: options.vaultKeys ?? [TEST_VAULT_KEY],
    });
    return {
      app,
      db,
      advance: (ms) => {
        offset += ms;
      },
      close: async () => {
        await app.close();
        await db.destroy();
      },
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
