import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { compareReleaseIds } from '../src/catalog/release-history.js';
import { loadReleases } from '../src/catalog/releases.js';
import { createPlatform, signupEntity } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/catalog', import.meta.url));
const REPOSITORY_CATALOG = fileURLToPath(new URL('../catalog', import.meta.url));

function copyOf(source: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-catalog-'));
  cpSync(source, dir, { recursive: true });
  return dir;
}
const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
};

// `statehouse catalog release | diff | export` over a copy of the fixture catalog (--catalog): files only, no database.
describe('statehouse catalog release, diff and export', { timeout: 240_000 }, () => {
  const dir = copyOf(FIXTURE);
  const releases = path.join(dir, 'releases');
  const cli = (...args: string[]) => runCli(['catalog', ...args, '--catalog', dir], {});

  it('cuts the baseline, refuses what is not a release, then releases a change with its fields and the changelog', async () => {
    const baseline = await cli('release', '--id', '2026.11.01-1', '--date', '2026-11-01');
    expect(baseline.stderr).toBe('');
    expect(baseline.code).toBe(0);
    expect(baseline.stdout).toMatch(/^Released 2026\.11\.01-1 \(Baseline\): 16 added, 0 changed, 0 retired/);
    for (const file of ['2026.11.01-1.json', 'digests.json', 'CHANGELOG.md']) expect(existsSync(path.join(releases, file))).toBe(true);

    const nothing = await cli('release', '--title', 'Nothing');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain('The catalog is release 2026.11.01-1; nothing to release.');

    edit(path.join(dir, 'regions', 'CO.yaml'), 'title: Qualify', 'title: Qualify in Colorado');
    const untitled = await cli('release');
    expect(untitled.code).toBe(2);
    expect(untitled.stderr).toContain('--title is required');
    const older = await cli('release', '--title', 'Rename', '--id', '2026.11.01-1');
    expect(older.code).toBe(2);
    expect(older.stderr).toContain('release 2026.11.01-1 must come after the latest release, 2026.11.01-1');
    const badDate = await cli('release', '--title', 'Rename', '--date', '2026-13-45');
    expect(badDate.code).toBe(2);

    const preview = await cli('release', '--title', 'Rename', '--dry-run', '--date', '2026-11-02');
    expect(preview.stdout).toContain('Would release 2026.11.02-1 (Rename): 0 added, 1 changed, 0 retired');
    expect(existsSync(path.join(releases, '2026.11.02-1.json'))).toBe(false);

    const cut = await cli('release', '--title', 'Rename', '--notes', 'Colorado title in plain words.', '--date', '2026-11-02');
    expect(cut.code).toBe(0);
    expect(cut.stdout).toContain('changed  CO  co-foreign-qualification  Qualify in Colorado  [title]');
    const written = JSON.parse(readFileSync(path.join(releases, '2026.11.02-1.json'), 'utf8'));
    expect(written).toMatchObject({
      id: '2026.11.02-1',
      date: '2026-11-02',
      title: 'Rename',
      notes: 'Colorado title in plain words.',
      summary: { added: 0, changed: 1, retired: 0, requirements: 16 },
    });
    expect(written.changes).toEqual([
      {
        change: 'changed',
        id: 'co-foreign-qualification',
        region: 'CO',
        title: 'Qualify in Colorado',
        fields: ['title'],
        sources: expect.any(Array),
        category: expect.any(String),
        priority: expect.any(String),
      },
    ]);
    const changelog = readFileSync(path.join(releases, 'CHANGELOG.md'), 'utf8');
    expect(changelog.indexOf('## 2026.11.02-1 — Rename')).toBeLessThan(changelog.indexOf('## 2026.11.01-1 — Baseline'));
    expect(changelog).toContain('Colorado title in plain words.');
  });

  it('diffs two releases, or a release and the catalog as it is now', async () => {
    const diff = await cli('diff', '2026.11.01-1', '2026.11.02-1');
    expect(diff.code).toBe(0);
    expect(diff.stdout.split('\n')[0]).toBe('2026.11.01-1 → 2026.11.02-1: 0 added, 1 changed, 0 retired');

    edit(path.join(dir, 'regions', 'OR.yaml'), '- id: or-big-employer-program', '- id: or-large-employer-program');
    const now = JSON.parse((await cli('diff', '2026.11.01-1', 'current', '--json')).stdout);
    expect(now.changes.map((c: { change: string; id: string }) => `${c.change} ${c.id}`)).toEqual([
      'added or-large-employer-program',
      'changed co-foreign-qualification',
      'retired or-big-employer-program',
    ]);

    const unknown = await cli('diff', '2026.11.01-1', '2027.01.01-1');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown release '2027.01.01-1' (releases: 2026.11.01-1, 2026.11.02-1)");
    const backwards = await cli('diff', '2026.11.02-1', '2026.11.01-1');
    expect(backwards.code).toBe(2);
  });

  it('exports every requirement as CSV and JSON, with the release it is', async () => {
    const out = path.join(dir, 'requirements.csv');
    const csv = await cli('export', '--format', 'csv', '--out', out);
    expect(csv.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'region,id,family,title,summary,agency_id,agency_name,agency_website,applies_when,schedule,due_rule,fee,sources,verified_on,confidence,notes',
    );
    expect(lines).toHaveLength(1 + 16);
    // JSON columns are quoted with their quotes doubled.
    expect(lines.find((l) => l.startsWith('CO,co-withholding,'))).toMatch(/,"\{""has_employees"":true\}",/);

    const json = JSON.parse((await cli('export')).stdout);
    // The OR edit above is unreleased: the export says so (release null).
    expect(json).toMatchObject({ license: 'Apache-2.0', release: null });
    const row = json.requirements.find((r: { id: string }) => r.id === 'co-withholding');
    expect(row).toMatchObject({
      region: 'CO',
      applies_when: { has_employees: true },
      due_rule: expect.any(String),
      sources: expect.any(Array),
    });

    const bad = await cli('export', '--format', 'xml');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be json or csv');
  });
});

// `statehouse catalog impact` against a database with an entity planned with the repository's catalog.
describe('statehouse catalog impact', { timeout: 240_000 }, () => {
  let url: string;
  let db: Db;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let entityId: string;

  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
    db = createDb(url, 2);
    app = await buildApp({ config: loadConfig({}, { databaseUrl: url }), db, logger: false });
    const { apiKey } = await createPlatform(db);
    // A Delaware C corporation: its franchise tax report is planned.
    entityId = await signupEntity(app, apiKey);
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
  });

  it('finds nothing to change with the catalog the entity was planned with', async () => {
    const result = await runCli(['catalog', 'impact', '--json'], { DATABASE_URL: url });
    expect(result.code).toBe(0);
    const impact = JSON.parse(result.stdout);
    expect(impact).toMatchObject({ entities: 1, affected: 0, requirements: [] });
    expect(impact.plannedWith).toEqual([{ release_id: impact.release, revision: expect.any(Number), entities: 1 }]);
    // The entity's plan says which release it was planned with.
    const explained = await runCli(['catalog', 'explain', entityId], { DATABASE_URL: url });
    expect(explained.stdout.split('\n')[0]).toBe(
      `Stored tasks last planned with catalog release ${impact.release} (revision ${impact.plannedWith[0].revision})`,
    );
  });

  it('counts the entities that gain and lose a requirement with another catalog, read-only', async () => {
    const next = copyOf(REPOSITORY_CATALOG);
    edit(
      path.join(next, 'regions', 'DE.yaml'),
      '- id: de-annual-franchise-tax-report-corporation',
      '- id: de-franchise-tax-report-corporation',
    );
    const before = await db.selectFrom('tasks').select(['id', 'definition_id', 'updated_at']).orderBy('id').execute();
    // Against the repository's latest release: the edit above is all that changed since.
    const latest = loadReleases(path.join(REPOSITORY_CATALOG, 'releases'))
      .map((r) => r.id)
      .sort(compareReleaseIds)
      .at(-1)!;
    const result = await runCli(['catalog', 'impact', '--catalog', next, '--against', latest], { DATABASE_URL: url });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `Planning with this catalog (unreleased changes), the 2 requirements changed since ${latest}: 1 of 1 legal entities would gain or lose tasks.`,
    );
    expect(result.stdout).toMatch(/DE +de-franchise-tax-report-corporation +\+1 +-0/);
    expect(result.stdout).toMatch(/DE +de-annual-franchise-tax-report-corporation +\+0 +-1/);
    expect(await db.selectFrom('tasks').select(['id', 'definition_id', 'updated_at']).orderBy('id').execute()).toEqual(before);

    const unknown = await runCli(['catalog', 'impact', '--against', '2020.01.01-1'], { DATABASE_URL: url });
    expect(unknown.code).toBe(2);
  });
});
