import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { importBody } from './helpers/imports.js';

// `statehouse import FILE --platform <id>`: the import of POST /v2/legal_entities/imports, run by the command itself.
describe('statehouse import', { timeout: 180_000 }, () => {
  let t: TestApp;
  let platformId: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'statehouse-import-'));
  const env = () => ({ DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dir });

  beforeAll(async () => {
    t = await createTestApp();
    ({ platformId } = await createPlatform(t.db, 'Cli Payroll'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a CSV book, then finds it unchanged; no progress bar when stderr is not a terminal', async () => {
    const file = path.join(dir, 'book.csv');
    writeFileSync(
      file,
      [
        'external_company_id,business_name,user_email,entity_type,tax_class,incorporation_region,incorporated_date,regions,status',
        'cli-1,Cli One,a@example.com,llc,partnership,DE,2021-03-04,CA:5:physical;NY:2,active',
        'cli-2,Cli Two,b@example.com,c_corp,corp,DE,2020-01-01,TX::remote,',
      ].join('\n'),
    );
    const first = await runCli(['import', file, '--platform', platformId, '--json'], env());
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'succeeded', format: 'csv', counts: { total: 2, created: 2, failed: 0 } });
    expect(first.stderr).not.toContain('rows');
    const entities = await t.db
      .selectFrom('legal_entities')
      .select(['external_company_id', 'status'])
      .where('platform_id', '=', platformId)
      .execute();
    expect(entities.sort((a, b) => a.external_company_id!.localeCompare(b.external_company_id!))).toEqual([
      { external_company_id: 'cli-1', status: 'active' },
      { external_company_id: 'cli-2', status: 'inactive' },
    ]);

    const again = await runCli(['import', file, '--platform', platformId], env());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/succeeded — 2 rows, 0 created, 2 unchanged, 0 failed/);
  });

  it('reports bad rows (exit 1) and still imports the good ones; refuses an unknown platform', async () => {
    const file = path.join(dir, 'book.jsonl');
    writeFileSync(file, [importBody('cli-j1'), importBody('cli-j2', { entity_type: 'guild' })].map((r) => JSON.stringify(r)).join('\n'));
    const result = await runCli(['import', file, '--platform', platformId], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/1 created, 0 unchanged, 1 failed/);
    expect(result.stdout).toMatch(/row 2: entity_type: Input should be/);

    const unknown = await runCli(['import', file, '--platform', 'plt_nope'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Platform 'plt_nope' not found");
  });
});
