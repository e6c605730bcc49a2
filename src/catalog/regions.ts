import { readFileSync } from 'node:fs';
import { packagePath } from '../lib/package-root.js';

export interface Region {
  readonly id: string;
  readonly code: string;
  readonly name: string;
}

export class CatalogError extends Error {
  constructor(file: string, field: string, problem: string) {
    super(`Invalid catalog file ${file}: ${field}: ${problem}`);
    this.name = 'CatalogError';
  }
}

const REGIONS_FILE = packagePath('catalog', 'regions.json');

/** Loads and checks the region list: 51 entries, unique two-letter codes and 16-hex-digit ids. */
export function loadRegions(file = REGIONS_FILE): readonly Region[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { regions?: unknown };
  if (!Array.isArray(data.regions)) throw new CatalogError(file, 'regions', 'must be an array');
  const seenCodes = new Set<string>();
  const seenIds = new Set<string>();
  const regions = data.regions.map((entry: unknown, index: number) => {
    const where = `regions[${index}]`;
    const { id, code, name } = (entry ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !/^[0-9a-f]{16}$/.test(id)) throw new CatalogError(file, `${where}.id`, 'must be 16 lower-case hex digits');
    if (typeof code !== 'string' || !/^[A-Z]{2}$/.test(code)) throw new CatalogError(file, `${where}.code`, 'must be two capital letters');
    if (typeof name !== 'string' || name.length === 0) throw new CatalogError(file, `${where}.name`, 'must be a non-empty string');
    if (seenCodes.has(code)) throw new CatalogError(file, `${where}.code`, `duplicate code ${code}`);
    if (seenIds.has(id)) throw new CatalogError(file, `${where}.id`, `duplicate id ${id}`);
    seenCodes.add(code);
    seenIds.add(id);
    return Object.freeze({ id, code, name });
  });
  if (regions.length !== 51) throw new CatalogError(file, 'regions', `must list the 50 states and DC (found ${regions.length})`);
  return Object.freeze(regions);
}

export const REGIONS = loadRegions();
export const REGION_CODES = REGIONS.map((r) => r.code);
const byId = new Map(REGIONS.map((r) => [r.id, r]));
const byCode = new Map(REGIONS.map((r) => [r.code, r]));

export const regionById = (id: string) => byId.get(id);
export const regionByCode = (code: string) => byCode.get(code.toUpperCase());

const byName = new Map(REGIONS.map((r) => [r.name.toLowerCase(), r]));

/**
 * Where a request names a state: unversioned paths take the location id; the two-letter code (any case) and the
 * state's name (any case, e.g. "california" or "New  York") are accepted too (docs/decisions/0077-region-names-and-ids.md).
 */
export const resolveRegion = (idOrCodeOrName: string) => {
  const value = idOrCodeOrName.trim();
  return (
    byId.get(value) ??
    (value.length === 2 ? byCode.get(value.toUpperCase()) : undefined) ??
    byName.get(value.toLowerCase().replace(/\s+/g, ' '))
  );
};
