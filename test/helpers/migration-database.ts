import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { admin, withDatabase } from './test-database.js';

/**
 * A database of its own for testing one migration on data: `create` migrates a fresh database up to just before
 * `migration` (the test then writes rows as that version would), `toLatest` applies the rest, `toBefore` goes back
 * down. Call it inside a `describe`: the database is dropped after the file's tests. Each step resolves to the
 * migrator's error (undefined when it went well), for the test to assert.
 */
export function migrationDatabase(label: string, migration: string) {
  const { adminUrl } = inject('testCluster');
  const name = `statehouse_test_${label}_${process.pid}`;
  const lastBefore = Object.keys(migrations)
    .filter((n) => n < migration)
    .sort()
    .at(-1)!;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an earlier version
  let db: Kysely<any> | undefined;
  const migrator = () => new Migrator({ db: db!, provider: { getMigrations: async () => migrations } });
  afterAll(async () => {
    await db?.destroy();
    await admin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  });
  return {
    async create() {
      await admin(adminUrl, (c) => c.query(`drop database if exists ${name}`).then(() => c.query(`create database ${name}`)));
      db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: withDatabase(adminUrl, name), max: 2 }) }) });
      return { db, error: (await migrator().migrateTo(lastBefore)).error };
    },
    toLatest: async () => (await migrator().migrateToLatest()).error,
    toBefore: async () => (await migrator().migrateTo(lastBefore)).error,
  };
}
