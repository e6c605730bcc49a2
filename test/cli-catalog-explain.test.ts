import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { createPlatform, signupEntity } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

// `statehouse catalog explain`: every planned task's due date, the rule behind it and whether it is exact.
describe('statehouse catalog explain', { timeout: 120_000 }, () => {
  let url: string;
  let db: Db;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let entityId: string;

  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
    db = createDb(url, 2);
    app = await buildApp({ config: loadConfig({}, { databaseUrl: url }), db, logger: false });
    const { apiKey } = await createPlatform(db);
    // A Delaware C corporation incorporated 2022-01-15: its franchise tax report is due March 1 every year.
    entityId = await signupEntity(app, apiKey);
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
  });

  it('prints each planned task with its due date, exact or estimated, and the rule in words under it', async () => {
    const result = await runCli(['catalog', 'explain', entityId], { DATABASE_URL: url });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const header = lines.findIndex((l) => /^Due dates \(\d+ planned tasks?\)$/.test(l));
    expect(header).toBeGreaterThan(0);
    expect(lines[header + 1]).toMatch(/^ {2}REGION {2}DUE {9}DATE IS +TASK$/);
    // Aligned: the task and the rule under it start in the TASK column.
    const column = lines[header + 1]!.indexOf('TASK');
    const row = lines.findIndex((l) => /^ {2}DE {6}\d{4}-03-01 {2}exact +de-annual-franchise-tax-report-corporation$/.test(l));
    expect(row).toBeGreaterThan(header);
    expect(lines[row]!.indexOf('de-annual')).toBe(column);
    expect(lines[row + 1]!.slice(0, column).trim()).toBe('');
    expect(lines[row + 1]!.slice(column)).toMatch(/^Due March 1 every year/);
    // The federal requirements are explained in the state of incorporation, on the whole business's facts.
    expect(result.stdout).toMatch(/\(federal\) us-irs-ein/);
  });

  it('--json carries the same basis on every planned task', async () => {
    const result = await runCli(['catalog', 'explain', entityId, '--json'], { DATABASE_URL: url });
    const { planned } = JSON.parse(result.stdout) as { planned: { definitionId: string; dueDate: string | null; dueDateBasis: unknown }[] };
    const franchise = planned.find((p) => p.definitionId === 'de-annual-franchise-tax-report-corporation')!;
    expect(franchise.dueDateBasis).toEqual({ rule: expect.stringMatching(/^Due March 1 every year/), exact: true, questionId: null });
    expect(planned.filter((p) => p.dueDate === null).every((p) => p.dueDateBasis === null)).toBe(true);
  });
});
