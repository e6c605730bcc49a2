// The content digests of the catalog as loaded, and the changes since a release's digests: pure over loadCatalog
// (family files and whatever else the loader merges included).
import { createHash } from 'node:crypto';
import type { Catalog } from './catalog.js';
import {
  DIGEST_FIELDS,
  EVERY_REGION,
  type CatalogRequirement,
  type DigestField,
  type ReleaseDigests,
  type RequirementChange,
} from './releases.types.js';

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
    ({
      change, id: r.definition.id, region: r.region, title: r.definition.title, ...(fields && { fields }), sources: [...r.definition.sources],
      category: r.definition.category, priority: r.definition.priority,
    });
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
    changes.push({
      change: 'retired', id, region: known?.region ?? old.split(' ')[0]!, title: known?.title ?? id, sources: known?.sources ?? [],
      ...(known?.category && { category: known.category }), ...(known?.priority && { priority: known.priority }),
    });
  }
  const order = { added: 0, changed: 1, retired: 2 };
  changes.sort((a, b) => order[a.change] - order[b.change] || a.region.localeCompare(b.region) || a.id.localeCompare(b.id));
  return { changes, questionsChanged: previous !== null && previous.questions !== current.questions };
}
