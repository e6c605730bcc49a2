import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

describe('the daily roll-forward', () => {
  let t: TestApp;
  let token: string;
  const franchiseDueDates = async () =>
    json<{ definition: { id: string }; due_date: string }[]>(
      await t.app.inject({ url: '/tasks?definition_id=tx-franchise-tax-report', headers: bearer(token) }),
    )
      .map((x) => x.due_date)
      .sort();

  beforeAll(async () => {
    t = await createTestApp({ accessTokenTtlSeconds: 86_400 * 800 });
    ({ token } = await createPlatformWithEntity(t, undefined, {
      user_email: 'o@example.com',
      business_name: 'Lone Star LLC',
      entity_type: 'llc',
      tax_class: 'disregarded',
      incorporation_region: 'TX',
      incorporated_date: '2021-04-01',
    }));
  });
  afterAll(async () => t.close());

  it('keeps 12 months of tasks as time passes, without duplicates, keeping the ones already planned', async () => {
    const first = await franchiseDueDates();
    expect(first).toHaveLength(1);
    t.advance(400 * 86_400_000);
    const result = await t.app.services.planning.rollForward();
    expect(result.entities).toBe(1);
    expect(result.created).toBeGreaterThan(0);
    const later = await franchiseDueDates();
    expect(later).toHaveLength(2);
    expect(later[0]).toBe(first[0]); // the earlier (now overdue) report stays until someone acts on it
    expect(Number(later[1]!.slice(0, 4))).toBe(Number(first[0]!.slice(0, 4)) + 1);
    expect((await t.app.services.planning.rollForward()).created).toBe(0);
  });
});

describe('the job queue and operator commands', () => {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
  });
  afterAll(async () => dropTestDatabase(inject('testCluster').adminUrl, url));

  it('statehouse serve schedules the roll-forward in the durable queue', async () => {
    const server = await startServer(loadConfig({}, { databaseUrl: url, port: 0, logLevel: 'silent' }), () => {});
    try {
      const { rows } = await sql<{
        name: string;
        cron: string;
        timezone: string;
      }>`select name, cron, timezone from pgboss.schedule`.execute(server.database.db);
      expect(rows).toContainEqual({ name: 'tasks.roll-forward', cron: '15 3 * * *', timezone: 'UTC' });
      expect(rows).toContainEqual({ name: 'connections.sweep', cron: '* * * * *', timezone: 'UTC' });
      expect(rows).toContainEqual({ name: 'mail.gc', cron: '45 4 * * *', timezone: 'UTC' });
    } finally {
      await server.close();
    }
  });

  it('catalog list, catalog explain and tasks roll-forward', async () => {
    const list = JSON.parse((await runCli(['catalog', 'list', '--region', 'ny', '--json'], { DATABASE_URL: url })).stdout);
    expect(list.length).toBeGreaterThan(5);
    expect(list.every((r: { region: string }) => r.region === 'NY')).toBe(true);
    expect((await runCli(['catalog', 'list', '--region', 'ZZ'], { DATABASE_URL: url })).code).toBe(2);

    const demo = JSON.parse((await runCli(['demo', '--json'], { DATABASE_URL: url })).stdout);
    const explained = await runCli(['catalog', 'explain', demo.legalEntityId], { DATABASE_URL: url });
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain('DE (state of incorporation)');
    expect(explained.stdout).toMatch(
      /applies {2}ca-foreign-qualification-corporation {2}\[no due date\]\n {11}California is not the state of incorporation/,
    );
    const asJson = JSON.parse((await runCli(['catalog', 'explain', demo.legalEntityId, '--json'], { DATABASE_URL: url })).stdout);
    expect(asJson.regions.map((r: { regionCode: string }) => r.regionCode)).toEqual(['CA', 'DE', 'NY']);
    expect((await runCli(['catalog', 'explain', 'le_nope'], { DATABASE_URL: url })).stderr).toContain("Legal entity 'le_nope' not found");

    const rolled = await runCli(['tasks', 'roll-forward'], { DATABASE_URL: url });
    expect(rolled.stdout).toMatch(/rolled forward 2 legal entities, 0 new tasks/);
  });
});
