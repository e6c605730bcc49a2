// Catalog releases (docs/catalog-releases.md): every change of the catalog shipped in the repository is a release,
// one small JSON file per release in catalog/releases/, plus catalog/releases/digests.json, the per-requirement
// content digests of the latest release (what the next release is computed against). This file reads that directory;
// the shapes are releases.types.ts, the digests release-digests.ts, the history release-history.ts and the files'
// layout release-format.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG_DIR, type Catalog } from './catalog.js';
import { contentDigest, diffCatalog } from './release-digests.js';
import { compareReleaseIds, lastKnownIn } from './release-history.js';
import { RELEASE_ID, type CatalogRelease, type ReleaseDigests } from './releases.types.js';

export const RELEASES_DIR = path.join(CATALOG_DIR, 'releases');
export const DIGESTS_FILE = 'digests.json';
export const CHANGELOG_FILE = 'CHANGELOG.md';
/** The command that cuts a release (named by every check that finds the catalog unreleased). */
export const RELEASE_COMMAND = 'npx statehouse catalog release --title "…" [--notes "…"] [--id YYYY.MM.DD-N]';

export class ReleaseFileError extends Error {}

/** The releases in `dir`, oldest first; a file that is not a release (its name is not `<id>.json`) is refused. */
export function loadReleases(dir = RELEASES_DIR): CatalogRelease[] {
  if (!existsSync(dir)) return [];
  const releases: CatalogRelease[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json') || name === DIGESTS_FILE) continue;
    const file = path.join(dir, name);
    let release: CatalogRelease;
    try {
      release = JSON.parse(readFileSync(file, 'utf8')) as CatalogRelease;
    } catch (error) {
      throw new ReleaseFileError(`${file}: not valid JSON: ${(error as Error).message}`);
    }
    if (!RELEASE_ID.test(release.id) || name !== `${release.id}.json` || !Array.isArray(release.changes)) {
      throw new ReleaseFileError(`${file}: not a catalog release (its id must be the file's name, YYYY.MM.DD-N)`);
    }
    releases.push(release);
  }
  return releases.sort((a, b) => compareReleaseIds(a.id, b.id));
}

export function readDigests(dir = RELEASES_DIR): ReleaseDigests | null {
  const file = path.join(dir, DIGESTS_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as ReleaseDigests;
}

/**
 * The release the catalog as loaded is: the latest release when its content matches that release's digests; null
 * when the catalog holds unreleased changes (a development build) or no release exists.
 */
export function releaseOfCatalog(catalog: Catalog, dir = RELEASES_DIR): string | null {
  const digests = readDigests(dir);
  if (!digests) return null;
  return digests.content === contentDigest(catalog) ? digests.release : null;
}

/** What a consistency check says of the catalog against its latest release: nothing when it is released. */
export function unreleasedChanges(catalog: Catalog, dir = RELEASES_DIR): string[] {
  const releases = loadReleases(dir);
  const digests = readDigests(dir);
  const latest = releases.at(-1);
  if (!latest || !digests) return [`no catalog release yet: run ${RELEASE_COMMAND}`];
  if (digests.release !== latest.id) return [`catalog/releases/${DIGESTS_FILE} is of release ${digests.release}, the latest release is ${latest.id}: run ${RELEASE_COMMAND}`];
  const { changes, questionsChanged } = diffCatalog(digests, catalog, lastKnownIn(releases));
  if (changes.length === 0 && !questionsChanged) return [];
  const counts = (['added', 'changed', 'retired'] as const).map((c) => `${changes.filter((x) => x.change === c).length} ${c}`).join(', ');
  const named = changes.slice(0, 5).map((c) => `${c.change} ${c.id}${c.fields ? ` (${c.fields.join(', ')})` : ''}`).join('; ');
  return [`the catalog differs from its latest release ${latest.id} (${counts}${questionsChanged ? ', questions changed' : ''}: ${named}${changes.length > 5 ? '; …' : ''}): run ${RELEASE_COMMAND}`];
}
