import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest } from '../../src/db/database.js';
import { openEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded.js';

export interface TestCluster {
  /** Connection string to a database with CREATE DATABASE rights (the admin database). */
  adminUrl: string;
  templateName: string;
  stop(): Promise<void>;
}

/** Replaces the database name of a connection string. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL when set, else an embedded server in a
 * temporary directory. A migrated template database makes a fresh database per test file cheap.
 */
export async function startTestCluster(): Promise<TestCluster> {
  let embedded: EmbeddedPostgres | null = null;
  let dataDir: string | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'statehouse-test-'));
    await chmod(dataDir, 0o755); // the server may run as the `postgres` user
    embedded = await openEmbeddedPostgres(path.join(dataDir, 'data'), { allowAttach: false, log: () => {} });
    adminUrl = embedded.connectionString('postgres');
  }
  const templateName = `statehouse_template_${process.pid}_${Date.now()}`;
  await admin(adminUrl, async (client) => {
    await client.query(`create database ${templateName}`);
  });
  await migrateToLatest(withDatabase(adminUrl, templateName));
  const url = adminUrl;
  return {
    adminUrl: url,
    templateName,
    async stop() {
      if (embedded) {
        await embedded.stop();
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      } else {
        await admin(url, async (client) => {
          const { rows } = await client.query<{ datname: string }>(
            `select datname from pg_database where datname like 'statehouse_test_%' or datname = $1`,
            [templateName],
          );
          for (const row of rows) await client.query(`drop database if exists ${client.escapeIdentifier(row.datname)} with (force)`);
        });
      }
    },
  };
}

export async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database, copied from the migrated template. */
export async function createTestDatabase(cluster: { adminUrl: string; templateName: string }): Promise<string> {
  const name = `statehouse_test_${Math.random().toString(36).slice(2, 12)}`;
  await admin(cluster.adminUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database ${name} template ${cluster.templateName}`);
        return;
      } catch (error) {
        // Two files copying the template at the same instant: wait and retry.
        if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  });
  return withDatabase(cluster.adminUrl, name);
}

export async function dropTestDatabase(adminUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await admin(adminUrl, (client) => client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`));
}
