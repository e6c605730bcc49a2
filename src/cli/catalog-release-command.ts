// `statehouse catalog release | diff | export` (docs/catalog-releases.md, docs/catalog-dataset.md): files only, no database.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG_DIR, loadCatalog, type Catalog } from '../catalog/catalog.js';
import { CHANGELOG_FILE, DIGESTS_FILE, loadReleases, readDigests as digestsOrNull } from '../catalog/releases.js';
import { RELEASE_ID, type CatalogRelease, type RequirementChange } from '../catalog/releases.types.js';
import { catalogRequirements, diffCatalog, digestCatalog } from '../catalog/release-digests.js';
import { changesBetween, compareReleaseIds, lastKnownIn, nextReleaseId } from '../catalog/release-history.js';
import { formatChangelog, formatDigests, formatRelease } from '../catalog/release-format.js';
import { describeSchedule } from '../engine/describe.js';
import { print, UsageError } from './output.js';

export interface ReleaseOptions {
  catalogDir?: string;
  id?: string;
  title?: string;
  notes?: string;
  /** YYYY-MM-DD; default today (UTC). */
  date?: string;
  dryRun: boolean;
  json: boolean;
}

const releasesDir = (catalogDir: string) => path.join(catalogDir, 'releases');

/** Writes a file whole or not at all (a crash leaves the old one). */
function writeAtomically(file: string, text: string) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * `catalog release`: the changes of the catalog (as loadCatalog merges it) since the latest release, written as a new
 * release file with the digests and the changelog. Refuses when nothing changed, an id that is taken or not after the
 * latest, and a bad date; `--dry-run` prints the change list without writing.
 */
export function catalogRelease(options: ReleaseOptions) {
  const catalogDir = options.catalogDir ?? CATALOG_DIR;
  const catalog = loadCatalog(catalogDir);
  const dir = releasesDir(catalogDir);
  const releases = loadReleases(dir);
  const latest = releases.at(-1);
  const digests = latest ? readLatestDigests(dir, latest) : null;
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
    throw new UsageError(`--date must be YYYY-MM-DD (got '${date}')`);
  const id = options.id ?? nextReleaseId(releases, date);
  if (!RELEASE_ID.test(id)) throw new UsageError(`--id must look like 2026.11.28-1 (YYYY.MM.DD-N; got '${id}')`);
  if (latest && compareReleaseIds(id, latest.id) <= 0)
    throw new UsageError(`release ${id} must come after the latest release, ${latest.id}`);
  const { changes, questionsChanged } = diffCatalog(digests, catalog, lastKnownIn(releases));
  if (latest && changes.length === 0 && !questionsChanged) {
    print(options.json, { released: null, latest: latest.id }, `The catalog is release ${latest.id}; nothing to release.`);
    return;
  }
  const title = options.title?.trim() || (latest ? '' : 'Baseline');
  if (!title) throw new UsageError('--title is required: a short line saying what the release is (e.g. "Local taxes of 12 states")');
  const count = (kind: RequirementChange['change']) => changes.filter((c) => c.change === kind).length;
  const release: CatalogRelease = {
    id,
    date,
    title,
    notes: options.notes ?? '',
    ...(latest ? {} : { baseline: true }),
    summary: {
      added: count('added'),
      changed: count('changed'),
      retired: count('retired'),
      requirements: catalogRequirements(catalog).length,
      questions_changed: questionsChanged,
    },
    changes,
  };
  if (!options.dryRun) {
    mkdirSync(dir, { recursive: true });
    writeAtomically(path.join(dir, `${id}.json`), formatRelease(release));
    writeAtomically(path.join(dir, DIGESTS_FILE), formatDigests(digestCatalog(catalog, id)));
    writeAtomically(path.join(dir, CHANGELOG_FILE), formatChangelog([...releases, release]));
  }
  const head = `${options.dryRun ? 'Would release' : 'Released'} ${id} (${title}): ${release.summary.added} added, ${release.summary.changed} changed, ${release.summary.retired} retired${questionsChanged ? ', questions changed' : ''}`;
  print(
    options.json,
    { released: options.dryRun ? null : id, release },
    [
      head,
      ...(release.baseline ? [] : changeLines(changes)),
      ...(options.dryRun
        ? []
        : [`Wrote ${path.join(dir, `${id}.json`)}, ${DIGESTS_FILE} and ${CHANGELOG_FILE}: commit them with the catalog.`]),
    ].join('\n'),
  );
}

function readLatestDigests(dir: string, latest: CatalogRelease) {
  const digests = digestsOrNull(dir);
  if (!digests)
    throw new UsageError(`${path.join(dir, DIGESTS_FILE)} is missing: it holds the content of release ${latest.id}; restore it from git`);
  if (digests.release !== latest.id) {
    throw new UsageError(
      `${path.join(dir, DIGESTS_FILE)} is of release ${digests.release}, but the latest release file is ${latest.id}: restore both from the same commit (git checkout)`,
    );
  }
  return digests;
}

function changeLines(changes: readonly RequirementChange[]): string[] {
  return changes.map(
    (c) => `  ${c.change.padEnd(8)} ${c.region.padEnd(3)} ${c.id}  ${c.title}${c.fields ? `  [${c.fields.join(', ')}]` : ''}`,
  );
}

/** `catalog diff <from> <to>`: what changed between two releases (`to` may be `current`: the catalog as it is now). */
export function catalogDiff(from: string | undefined, to: string | undefined, options: { catalogDir?: string; json: boolean }) {
  if (!from || !to) throw new UsageError('Usage: statehouse catalog diff <from-release> <to-release|current> [--json]');
  const catalogDir = options.catalogDir ?? CATALOG_DIR;
  const dir = releasesDir(catalogDir);
  const releases = loadReleases(dir);
  const known = (id: string) => {
    if (!releases.some((r) => r.id === id))
      throw new UsageError(`Unknown release '${id}' (releases: ${releases.map((r) => r.id).join(', ') || 'none'})`);
  };
  known(from);
  let changes: RequirementChange[];
  let questionsChanged = false;
  if (to === 'current') {
    const latest = releases.at(-1)!;
    const now = diffCatalog(readLatestDigests(dir, latest), loadCatalog(catalogDir), lastKnownIn(releases));
    // The releases since `from`, then what the working catalog changes beyond the latest, as if it were released.
    const current: CatalogRelease = {
      id: 'current',
      date: '',
      title: '',
      notes: '',
      summary: { added: 0, changed: 0, retired: 0, requirements: 0, questions_changed: now.questionsChanged },
      changes: now.changes,
    };
    const list = [...releases, current];
    changes = changesBetween(list, from, 'current');
    questionsChanged = list.slice(list.findIndex((r) => r.id === from) + 1).some((r) => r.summary.questions_changed);
  } else {
    known(to);
    if (compareReleaseIds(from, to) > 0) throw new UsageError(`'${from}' is newer than '${to}': give the older release first`);
    changes = changesBetween(releases, from, to);
    questionsChanged = releases
      .filter((r) => compareReleaseIds(r.id, from) > 0 && compareReleaseIds(r.id, to) <= 0)
      .some((r) => r.summary.questions_changed);
  }
  const counts = (['added', 'changed', 'retired'] as const).map((k) => `${changes.filter((c) => c.change === k).length} ${k}`).join(', ');
  print(
    options.json,
    { from, to, questions_changed: questionsChanged, changes },
    [`${from} → ${to}: ${counts}${questionsChanged ? ', questions changed' : ''}`, ...changeLines(changes)].join('\n'),
  );
}

/** One row of the open dataset (docs/catalog-dataset.md: its columns, in this order). */
export function datasetRows(catalog: Catalog) {
  return catalogRequirements(catalog).map(({ region, definition: d, agency }) => ({
    region,
    id: d.id,
    family: d.family,
    title: d.title,
    summary: d.summary,
    agency_id: agency.id,
    agency_name: agency.name,
    agency_website: agency.website,
    applies_when: d.applies_when,
    schedule: d.schedule,
    due_rule: describeSchedule(d.schedule),
    fee: d.fee,
    sources: d.sources,
    verified_on: [...new Set((d.verification ?? []).map((v) => v.verified_on))].sort(),
    confidence: d.confidence,
    notes: d.notes ?? null,
  }));
}

export const DATASET_COLUMNS = [
  'region',
  'id',
  'family',
  'title',
  'summary',
  'agency_id',
  'agency_name',
  'agency_website',
  'applies_when',
  'schedule',
  'due_rule',
  'fee',
  'sources',
  'verified_on',
  'confidence',
  'notes',
] as const;

/** RFC 4180: every field quoted when it needs to be; objects and lists as JSON (lists of URLs and dates too). */
function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `catalog export --format json|csv [--out file]`: every requirement, one row each (the open dataset). */
export function catalogExport(options: { format?: string; out?: string; catalogDir?: string; release: string | null }) {
  const format = options.format ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv (got '${format}')`);
  const rows = datasetRows(loadCatalog(options.catalogDir ?? CATALOG_DIR));
  const text =
    format === 'json'
      ? `${JSON.stringify({ dataset: 'Statehouse compliance requirements', license: 'Apache-2.0', release: options.release, requirements: rows }, null, 2)}\n`
      : `${[DATASET_COLUMNS.join(','), ...rows.map((r) => DATASET_COLUMNS.map((c) => csvField(r[c])).join(','))].join('\r\n')}\r\n`;
  if (options.out) {
    writeAtomically(options.out, text);
    process.stderr.write(`[statehouse] wrote ${rows.length} requirements to ${options.out}\n`);
  } else process.stdout.write(text);
}
