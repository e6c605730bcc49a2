import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_API_VERSION, FIRST_API_VERSION } from '../src/http/api-versions.js';
import { createPlatform, createTestApp, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { migrationDatabase } from './helpers/migration-database.js';

// Where a platform's default API version comes from besides its first key: the migration and the operator's CLI.
describe('the migration pins every existing platform to the first version', () => {
  const database = migrationDatabase('api_versions', '20261129030000_versions-test-events');

  it('sets it on the platforms that exist, and down removes the column', async () => {
    const { db, error } = await database.create();
    expect(error).toBeUndefined();
    await sql`insert into platforms (id, name) values ('plt_old', 'Old Payroll')`.execute(db);
    expect(await database.toLatest()).toBeUndefined();
    const { rows } = await sql<{ api_version: string }>`select api_version from platforms where id = 'plt_old'`.execute(db);
    expect(rows).toEqual([{ api_version: FIRST_API_VERSION }]);
    expect(await database.toBefore()).toBeUndefined();
  });
});

describe('statehouse platforms set-version', { timeout: 180_000 }, () => {
  let t: TestApp;
  let platformId: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'statehouse-versions-'));
  const env = () => ({ DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dir });

  beforeAll(async () => {
    t = await createTestApp();
    ({ platformId } = await createPlatform(t.db, 'Acme Payroll'));
    await sql`update platforms set api_version = '2025-01-01' where id = ${platformId}`.execute(t.db);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("moves a platform's pin to a known version, lists it, and refuses an unknown version or platform", async () => {
    const set = await runCli(['platforms', 'set-version', platformId, CURRENT_API_VERSION, '--json'], env());
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ platform_id: platformId, api_version: CURRENT_API_VERSION });
    const listed = await runCli(['platforms', 'list', '--json'], env());
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ platform_id: platformId, api_version: CURRENT_API_VERSION })]);

    const unknown = await runCli(['platforms', 'set-version', platformId, '2020-01-01'], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`Unknown API version '2020-01-01'. Known versions: ${CURRENT_API_VERSION}.`);
    const nobody = await runCli(['platforms', 'set-version', 'plt_nope', CURRENT_API_VERSION], env());
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("Platform 'plt_nope' not found");
    const missing = await runCli(['platforms', 'set-version', platformId], env());
    expect(missing.code).toBe(2);
  });
});
