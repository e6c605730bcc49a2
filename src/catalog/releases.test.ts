import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';
import { changesBetween, compareReleaseIds, lastKnownIn, nextReleaseId, retiredRequirements } from './release-history.js';
import { diffCatalog, digestCatalog } from './release-digests.js';
import { formatDigests, formatRelease } from './release-format.js';
import { loadReleases, readDigests, releaseOfCatalog, unreleasedChanges } from './releases.js';
import type { CatalogRelease } from './releases.types.js';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/catalog', import.meta.url));

/** A copy of the fixture catalog with its baseline release written as `statehouse catalog release` writes it. */
function releasedFixture() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-releases-'));
  cpSync(FIXTURE, dir, { recursive: true });
  const catalog = loadCatalog(dir);
  const { changes } = diffCatalog(null, catalog, () => undefined);
  const release = {
    id: '2026.11.01-1', date: '2026-11-01', title: 'Baseline', notes: '', baseline: true,
    summary: { added: changes.length, changed: 0, retired: 0, requirements: changes.length, questions_changed: false }, changes,
  };
  mkdirSync(path.join(dir, 'releases'));
  writeFileSync(path.join(dir, 'releases', `${release.id}.json`), formatRelease(release));
  writeFileSync(path.join(dir, 'releases', 'digests.json'), formatDigests(digestCatalog(catalog, release.id)));
  return { dir, releases: path.join(dir, 'releases') };
}

const edit = (file: string, from: string | RegExp, to: string) => {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  expect(next).not.toBe(text);
  writeFileSync(file, next);
};

describe('catalog releases', () => {
  it('the catalog in the repository is its latest release (else: cut one with `statehouse catalog release`)', () => {
    const catalog = loadCatalog();
    expect(unreleasedChanges(catalog)).toEqual([]);
    expect(releaseOfCatalog(catalog)).toBe(loadReleases().at(-1)!.id);
  });

  it('finds an unreleased change, names the requirement, its changed fields and the command to run', () => {
    const { dir, releases } = releasedFixture();
    expect(unreleasedChanges(loadCatalog(dir), releases)).toEqual([]);
    expect(releaseOfCatalog(loadCatalog(dir), releases)).toBe('2026.11.01-1');

    const co = path.join(dir, 'regions', 'CO.yaml');
    edit(co, /title: .*\n/, 'title: Register with Colorado (renamed)\n');
    const [problem] = unreleasedChanges(loadCatalog(dir), releases);
    expect(problem).toMatch(/differs from its latest release 2026\.11\.01-1 \(0 added, 1 changed, 0 retired: changed co-foreign-qualification \(title\)\)/);
    expect(problem).toContain('npx statehouse catalog release');
    expect(releaseOfCatalog(loadCatalog(dir), releases)).toBeNull();
  });

  it('tells added, changed (with the fields) and retired requirements apart, a retired one as last released', () => {
    const { dir, releases } = releasedFixture();
    const or = path.join(dir, 'regions', 'OR.yaml');
    const text = readFileSync(or, 'utf8');
    // Retire or-big-employer-program (the file's last requirement) and add one in its place under a new id.
    writeFileSync(or, text.replace('- id: or-big-employer-program', '- id: or-bigger-employer-program'));
    edit(path.join(dir, 'regions', 'CO.yaml'), 'day: last', 'day: 15');
    const { changes } = diffCatalog(readDigests(releases), loadCatalog(dir), lastKnownIn(loadReleases(releases)));
    expect(changes.map((c) => [c.change, c.id, c.fields ?? null])).toEqual([
      ['added', 'or-bigger-employer-program', null],
      ...changes.filter((c) => c.change === 'changed').map((c) => ['changed', c.id, ['schedule']]),
      ['retired', 'or-big-employer-program', null],
    ]);
    expect(changes.some((c) => c.change === 'changed')).toBe(true);
    const retired = changes.find((c) => c.change === 'retired')!;
    expect(retired.region).toBe('OR');
    expect(retired.sources.length).toBeGreaterThan(0);
    // Its category and priority as last released: what describes its tasks' task.deleted events.
    const last = loadReleases(releases)[0]!.changes.find((c) => c.id === 'or-big-employer-program')!;
    expect(last).toMatchObject({ category: expect.any(String), priority: expect.any(String) });
    expect(retired).toMatchObject({ category: last.category, priority: last.priority });
  });

  it('knows the requirements the catalog no longer has as last released, category and priority from older entries if need be', () => {
    const release = (id: string, changes: CatalogRelease['changes']): CatalogRelease =>
      ({ id, date: '', title: id, notes: '', summary: { added: 0, changed: 0, retired: 0, requirements: 0, questions_changed: false }, changes });
    const list = [
      release('2026.11.01-1', [{ change: 'added', id: 'co-gone', region: 'CO', title: 'Old title', sources: [], category: 'tax', priority: 'high' }]),
      // A release cut before entries recorded them: the category and priority come from the entry before.
      release('2026.11.02-1', [{ change: 'changed', id: 'co-gone', region: 'CO', title: 'New title', sources: ['https://x.example'], fields: ['title'] }]),
      release('2026.11.03-1', [{ change: 'retired', id: 'co-gone', region: 'CO', title: 'New title', sources: ['https://x.example'] }]),
    ];
    const catalog = loadCatalog(FIXTURE);
    expect(lastKnownIn(list)('co-gone')).toMatchObject({ change: 'changed', title: 'New title', category: 'tax', priority: 'high' });
    expect([...retiredRequirements(list, catalog).values()]).toEqual([
      { change: 'retired', id: 'co-gone', region: 'CO', title: 'New title', sources: ['https://x.example'], category: 'tax', priority: 'high' },
    ]);
    // A requirement the catalog has is not retired.
    expect(retiredRequirements([release('2026.11.01-1', [{ change: 'added', id: 'co-foreign-qualification', region: 'CO', title: 'x', sources: [] }])], catalog).size).toBe(0);
  });

  it('nets the changes of several releases: added then retired is nothing, fields are united', () => {
    const release = (id: string, changes: CatalogRelease['changes']): CatalogRelease =>
      ({ id, date: '', title: id, notes: '', summary: { added: 0, changed: 0, retired: 0, requirements: 0, questions_changed: false }, changes });
    const c = (change: 'added' | 'changed' | 'retired', id: string, fields?: string[]) => ({ change, id, region: 'CO', title: id, sources: [], ...(fields && { fields }) });
    const list = [
      release('2026.11.01-1', [c('added', 'a'), c('added', 'b')]),
      release('2026.11.02-1', [c('added', 'x'), c('changed', 'a', ['title'])]),
      release('2026.11.02-2', [c('retired', 'x'), c('changed', 'a', ['schedule']), c('retired', 'b')]),
    ];
    expect(changesBetween(list, '2026.11.01-1', '2026.11.02-2')).toEqual([
      { change: 'changed', id: 'a', region: 'CO', title: 'a', sources: [], fields: ['title', 'schedule'] },
      { change: 'retired', id: 'b', region: 'CO', title: 'b', sources: [] },
    ]);
    expect(changesBetween(list, '2026.11.02-1', '2026.11.02-2').map((x) => `${x.change} ${x.id}`)).toEqual(['changed a', 'retired b', 'retired x']);
  });

  it('orders release ids by day and number, and numbers the next one of a day', () => {
    expect(['2026.11.28-10', '2026.11.28-9', '2026.01.02-1'].sort(compareReleaseIds)).toEqual(['2026.01.02-1', '2026.11.28-9', '2026.11.28-10']);
    const releases = [{ id: '2026.11.28-1' }, { id: '2026.11.28-2' }] as CatalogRelease[];
    expect(nextReleaseId(releases, '2026-11-28')).toBe('2026.11.28-3');
    expect(nextReleaseId(releases, '2026-11-29')).toBe('2026.11.29-1');
  });
});
