// Catalog releases (docs/catalog-releases.md): every change of the catalog shipped in the repository is a release,
// one small JSON file per release in catalog/releases/, plus catalog/releases/digests.json, the per-requirement
// content digests of the latest release (what the next release is computed against). Pure over the loaded catalog
// (loadCatalog, so family files and whatever else the loader merges are included) and the files of that directory.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Agency, RequirementDefinition } from './catalog.schema.js';
import { CATALOG_DIR, type Catalog } from './catalog.js';

export const RELEASES_DIR = path.join(CATALOG_DIR, 'releases');
export const DIGESTS_FILE = 'digests.json';
export const CHANGELOG_FILE = 'CHANGELOG.md';
/** The command that cuts a release (named by every check that finds the catalog unreleased). */
export const RELEASE_COMMAND = 'npx statehouse catalog release --title "…" [--notes "…"] [--id YYYY.MM.DD-N]';

/** `2026.11.28-1`: the day it was cut and its number that day. */
export const RELEASE_ID = /^(\d{4})\.(\d{2})\.(\d{2})-([1-9]\d{0,2})$/;

/** The requirement fields a release tells apart ("changed: schedule, sources"); `agency` covers its name and website. */
export const DIGEST_FIELDS = [
  'family', 'title', 'summary', 'description', 'category', 'tags', 'priority', 'agency', 'resources', 'fee', 'eta',
  'applies_when', 'schedule', 'unlocks', 'resolutions', 'sources', 'verification', 'confidence', 'notes',
] as const;
export type DigestField = (typeof DIGEST_FIELDS)[number];

/** Region of the employer's own requirements (planned in every state: the handbook). */
export const EVERY_REGION = 'ALL';

export interface CatalogRequirement {
  /** Two-letter state code, US for federal requirements, ALL for the employer's own (every state). */
  region: string;
  definition: RequirementDefinition;
  agency: Agency;
}

/** One change a release made to one requirement. */
export interface RequirementChange {
  change: 'added' | 'changed' | 'retired';
  id: string;
  region: string;
  title: string;
  /** For `changed`: which fields (DIGEST_FIELDS). */
  fields?: string[];
  /** The requirement's source URLs (for `retired`: as last released). */
  sources: string[];
}

export interface CatalogRelease {
  id: string;
  /** YYYY-MM-DD. */
  date: string;
  title: string;
  /** The human changelog (Markdown), may be empty. */
  notes: string;
  /** The first release: the catalog as it was when releases began (every requirement `added`). */
  baseline?: boolean;
  summary: { added: number; changed: number; retired: number; requirements: number; questions_changed: boolean };
  changes: RequirementChange[];
}

/** catalog/releases/digests.json: the content of the latest release, requirement by requirement. */
export interface ReleaseDigests {
  release: string;
  fields: readonly string[];
  /** The questions' content (questions.yaml) as one digest. */
  questions: string;
  /** The whole content (every requirement with its region and agency, and the questions): one digest, checked at start. */
  content: string;
  /** Requirement id → "<region> <digest of each field, in `fields` order>". */
  requirements: Record<string, string>;
}

/** Every requirement of the catalog with its region and agency: the states in load order, then federal, then the employer's. */
export function catalogRequirements(catalog: Catalog): CatalogRequirement[] {
  const out: CatalogRequirement[] = [];
  for (const region of catalog.regions.values()) {
    for (const definition of region.requirements) out.push({ region: region.region.code, definition, agency: region.agencies.get(definition.agency)! });
  }
  for (const definition of catalog.federal.requirements) out.push({ region: 'US', definition, agency: catalog.federal.agencies.get(definition.agency)! });
  for (const definition of catalog.employerRequirements) {
    const agency = catalog.requirement(definition.id)?.agency;
    if (agency) out.push({ region: EVERY_REGION, definition, agency });
  }
  return out;
}

/** JSON with object keys sorted: the same content always digests alike, whatever the YAML's key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);
}

const shortDigest = (value: unknown) => createHash('sha256').update(canonical(value)).digest('hex').slice(0, 8);

function fieldValue(r: CatalogRequirement, field: DigestField): unknown {
  if (field === 'agency') return { id: r.agency.id, name: r.agency.name, website: r.agency.website };
  return r.definition[field];
}

/** The digests of the catalog as loaded, in the file's shape (its `release` set by the caller). */
export function digestCatalog(catalog: Catalog, release: string): ReleaseDigests {
  const requirements: Record<string, string> = {};
  for (const r of catalogRequirements(catalog)) {
    requirements[r.definition.id] = [r.region, ...DIGEST_FIELDS.map((f) => shortDigest(fieldValue(r, f)))].join(' ');
  }
  return { release, fields: DIGEST_FIELDS, questions: shortDigest(catalog.questions), content: contentDigest(catalog), requirements };
}

/** One digest of everything a release covers: what a process compares at start (one pass, not one per field). */
export function contentDigest(catalog: Catalog): string {
  const requirements = catalogRequirements(catalog).map((r) => [r.region, r.definition, { id: r.agency.id, name: r.agency.name, website: r.agency.website }]);
  return createHash('sha256').update(canonical({ requirements, questions: catalog.questions })).digest('base64url');
}

/**
 * The changes from `previous` (a release's digests; null: none yet) to the catalog as loaded. `lastKnown` gives a
 * retired requirement's region, title and sources as last released (it is no longer in the catalog).
 */
export function diffCatalog(
  previous: ReleaseDigests | null, catalog: Catalog, lastKnown: (id: string) => RequirementChange | undefined,
): { changes: RequirementChange[]; questionsChanged: boolean } {
  const current = digestCatalog(catalog, '');
  const byId = new Map(catalogRequirements(catalog).map((r) => [r.definition.id, r]));
  const describe = (r: CatalogRequirement, change: RequirementChange['change'], fields?: string[]): RequirementChange =>
    ({ change, id: r.definition.id, region: r.region, title: r.definition.title, ...(fields && { fields }), sources: [...r.definition.sources] });
  const changes: RequirementChange[] = [];
  const before = previous?.requirements ?? {};
  const previousFields = previous?.fields ?? DIGEST_FIELDS;
  for (const [id, digest] of Object.entries(current.requirements)) {
    const r = byId.get(id)!;
    const old = before[id];
    if (old === undefined) changes.push(describe(r, 'added'));
    else if (old !== digest) {
      const [oldRegion, ...oldFields] = old.split(' ');
      const [newRegion, ...newFields] = digest.split(' ');
      const fields = DIGEST_FIELDS.filter((f, i) => {
        const j = previousFields.indexOf(f);
        return j < 0 || oldFields[j] !== newFields[i];
      });
      changes.push(describe(r, 'changed', [...(oldRegion !== newRegion ? ['region'] : []), ...fields]));
    }
  }
  for (const [id, old] of Object.entries(before)) {
    if (current.requirements[id] !== undefined) continue;
    const known = lastKnown(id);
    changes.push({ change: 'retired', id, region: known?.region ?? old.split(' ')[0]!, title: known?.title ?? id, sources: known?.sources ?? [] });
  }
  const order = { added: 0, changed: 1, retired: 2 };
  changes.sort((a, b) => order[a.change] - order[b.change] || a.region.localeCompare(b.region) || a.id.localeCompare(b.id));
  return { changes, questionsChanged: previous !== null && previous.questions !== current.questions };
}

/** Compares release ids by date, then number (`2026.11.28-10` after `2026.11.28-9`). */
export function compareReleaseIds(a: string, b: string): number {
  const [ma, mb] = [RELEASE_ID.exec(a), RELEASE_ID.exec(b)];
  if (!ma || !mb) return a.localeCompare(b);
  const key = (m: RegExpExecArray) => `${m[1]}${m[2]}${m[3]}${m[4]!.padStart(3, '0')}`;
  return key(ma).localeCompare(key(mb));
}

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

/** A retired requirement's last released region, title and sources: its latest `added`/`changed` entry. */
export function lastKnownIn(releases: readonly CatalogRelease[]): (id: string) => RequirementChange | undefined {
  return (id) => {
    for (let i = releases.length - 1; i >= 0; i--) {
      const entry = releases[i]!.changes.find((c) => c.id === id && c.change !== 'retired');
      if (entry) return entry;
    }
    return undefined;
  };
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

/**
 * The net changes of the releases after `from` up to `to` (both release ids, `from` older): a requirement added then
 * retired in between is not listed; changed fields are united.
 */
export function changesBetween(releases: readonly CatalogRelease[], from: string, to: string): RequirementChange[] {
  const start = releases.findIndex((r) => r.id === from);
  const end = releases.findIndex((r) => r.id === to);
  const net = new Map<string, { first: RequirementChange; last: RequirementChange; fields: Set<string> }>();
  for (const release of releases.slice(start + 1, end + 1)) {
    for (const change of release.changes) {
      const seen = net.get(change.id);
      if (!seen) net.set(change.id, { first: change, last: change, fields: new Set(change.fields ?? []) });
      else {
        seen.last = change;
        for (const f of change.fields ?? []) seen.fields.add(f);
      }
    }
  }
  const out: RequirementChange[] = [];
  for (const { first, last, fields } of net.values()) {
    const wasThere = first.change !== 'added';
    const isThere = last.change !== 'retired';
    const base = { id: last.id, region: last.region, title: last.title, sources: last.sources };
    if (!wasThere && isThere) out.push({ change: 'added', ...base });
    else if (wasThere && !isThere) out.push({ change: 'retired', ...base });
    else if (wasThere && isThere) out.push({ change: 'changed', ...base, fields: fields.size ? [...fields] : ['(re-added)'] });
  }
  const order = { added: 0, changed: 1, retired: 2 };
  return out.sort((a, b) => order[a.change] - order[b.change] || a.region.localeCompare(b.region) || a.id.localeCompare(b.id));
}

/** One change per line: the files stay readable in a git diff. */
export function formatRelease(release: CatalogRelease): string {
  const { changes, ...head } = release;
  const lines = JSON.stringify(head, null, 2).split('\n');
  lines.pop();
  lines[lines.length - 1] += ',';
  const body = changes.map((c, i) => `    ${JSON.stringify(c)}${i < changes.length - 1 ? ',' : ''}`);
  return [...lines, changes.length ? '  "changes": [' : '  "changes": []', ...(changes.length ? [...body, '  ]'] : []), '}', ''].join('\n');
}

export function formatDigests(digests: ReleaseDigests): string {
  const entries = Object.entries(digests.requirements);
  return [
    '{',
    `  "release": ${JSON.stringify(digests.release)},`,
    `  "fields": ${JSON.stringify(digests.fields)},`,
    `  "questions": ${JSON.stringify(digests.questions)},`,
    `  "content": ${JSON.stringify(digests.content)},`,
    '  "requirements": {',
    ...entries.map(([id, d], i) => `    ${JSON.stringify(id)}: ${JSON.stringify(d)}${i < entries.length - 1 ? ',' : ''}`),
    '  }',
    '}',
    '',
  ].join('\n');
}

/** catalog/releases/CHANGELOG.md, newest release first (generated: edit a release's `notes` instead). */
export function formatChangelog(releases: readonly CatalogRelease[]): string {
  const out = ['# Catalog changelog', '', 'Generated by `statehouse catalog release` from the release files beside it (docs/catalog-releases.md); newest first.', ''];
  for (const r of [...releases].reverse()) {
    out.push(`## ${r.id} — ${r.title}`, '', `Released ${r.date}. ${r.summary.requirements} requirements: ${r.summary.added} added, ${r.summary.changed} changed, ${r.summary.retired} retired${r.summary.questions_changed ? '; questions changed' : ''}.`, '');
    if (r.notes.trim()) out.push(r.notes.trim(), '');
    if (r.baseline) {
      out.push('The baseline: the catalog as it was when releases began (every requirement is listed as added in the release file).', '');
      continue;
    }
    for (const kind of ['added', 'changed', 'retired'] as const) {
      const list = r.changes.filter((c) => c.change === kind);
      if (!list.length) continue;
      out.push(`### ${kind[0]!.toUpperCase()}${kind.slice(1)}`, '');
      for (const c of list) out.push(`- ${c.region} \`${c.id}\`: ${c.title}${c.fields ? ` (${c.fields.join(', ')})` : ''}${c.sources.length ? ` — ${c.sources.map((s) => `<${s}>`).join(', ')}` : ''}`);
      out.push('');
    }
  }
  return out.join('\n');
}

/** The next id of a day: `YYYY.MM.DD-N`, N one more than that day's last release. */
export function nextReleaseId(releases: readonly CatalogRelease[], day: string): string {
  const prefix = day.replaceAll('-', '.');
  const numbers = releases.map((r) => RELEASE_ID.exec(r.id)).filter((m) => m && `${m[1]}.${m[2]}.${m[3]}` === prefix).map((m) => Number(m![4]));
  return `${prefix}-${Math.max(0, ...numbers) + 1}`;
}

/** A release's list item: everything but the change list. */
export function releaseSummary(release: CatalogRelease) {
  return { id: release.id, date: release.date, title: release.title, notes: release.notes, baseline: release.baseline ?? false, summary: release.summary };
}
