/**
 * The task generation bench's book of entities (bench/task-generation.ts): realistic, reproducible
 * (a seeded PRNG, BENCH_TASK_SEED) and bulk-inserted without timing.
 */
import { sql } from 'kysely';
import { REGIONS } from '../src/catalog/regions.js';
import type { Db } from '../src/db/database.js';
import { newId, ID_PREFIX } from '../src/lib/ids.js';

const SEED = Number(process.env.BENCH_TASK_SEED || 1);
const LOCATIONS_PER_ENTITY = 3;
/** Rows per multi-row INSERT (unnest of arrays: one parameter per column, whatever the row count). */
const INSERT_CHUNK = 2000;

/** mulberry32: a small deterministic PRNG, so every run inserts the same book of entities. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickWeighted<T>(random: () => number, choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [value, weight] of choices) {
    r -= weight;
    if (r < 0) return value;
  }
  return choices[choices.length - 1]![0];
}

const CODES = REGIONS.map((r) => r.code);
const ID_BY_CODE = new Map(REGIONS.map((r) => [r.code, r.id]));
/** Where businesses tend to operate: the big states weigh more, every state and DC appears. */
const OPERATING_WEIGHT: Record<string, number> = {
  CA: 12,
  TX: 9,
  NY: 8,
  FL: 7,
  IL: 5,
  PA: 4,
  OH: 4,
  GA: 4,
  NC: 4,
  WA: 4,
  MA: 4,
  NJ: 4,
  VA: 3,
  MI: 3,
  CO: 3,
  AZ: 3,
};
const OPERATING = CODES.map((code) => [code, OPERATING_WEIGHT[code] ?? 1] as const);

const TAX_BY_TYPE = {
  c_corp: [
    ['corp', 75],
    ['s_corp', 25],
  ],
  p_corp: [
    ['corp', 40],
    ['s_corp', 60],
  ],
  llc: [
    ['disregarded', 50],
    ['partnership', 30],
    ['s_corp', 15],
    ['corp', 5],
  ],
} as const;

interface LocationProfile {
  regionId: string;
  hasEmployees: boolean | null;
  hasPhysicalLocation: boolean | null;
  employeeCount: number | null;
}

interface EntityProfile {
  id: string;
  entityType: keyof typeof TAX_BY_TYPE;
  taxClassification: string;
  incorporationRegion: string;
  incorporationDate: string;
  accountingYearEnd: number | null;
  locations: LocationProfile[];
}

/**
 * One entity: a C corp (40 %), an LLC (45 %) or a professional corp (15 %), with a tax class that
 * fits; incorporated in Delaware (about a third) or in one of the 51 regions (every one appears);
 * incorporated 0–15 years ago; a December year end mostly. Three distinct locations: the main
 * office with employees (usually in the home state unless incorporated in DE), a second site that
 * is an office or remote employees, and a third where some facts are still unknown (null) or false,
 * which leaves question tasks to answer.
 */
function entityProfile(random: () => number, index: number, today: Date): EntityProfile {
  const entityType = pickWeighted(random, [
    ['c_corp', 40],
    ['llc', 45],
    ['p_corp', 15],
  ] as const);
  const taxClassification = pickWeighted(random, TAX_BY_TYPE[entityType]);
  // Every region is the home of some entities (index % 51), Delaware of about a third.
  const incorporationRegion = random() < 0.35 ? 'DE' : CODES[index % CODES.length]!;
  const daysAgo = 30 + Math.floor(random() * 15 * 365);
  const incorporationDate = new Date(today.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const accountingYearEnd = pickWeighted(random, [
    [12, 80],
    [null, 10],
    [3, 3],
    [6, 4],
    [9, 3],
  ] as const);

  const codes: string[] = [];
  const addCode = (code: string) => {
    if (!codes.includes(code)) codes.push(code);
  };
  if (incorporationRegion !== 'DE' && random() < 0.7) addCode(incorporationRegion);
  while (codes.length < LOCATIONS_PER_ENTITY) addCode(pickWeighted(random, OPERATING));

  const employees = () => 1 + Math.floor(random() ** 3 * 250);
  const locations: LocationProfile[] = codes.map((code, i) => {
    const regionId = ID_BY_CODE.get(code)!;
    if (i === 0) return { regionId, hasEmployees: true, hasPhysicalLocation: true, employeeCount: employees() };
    if (i === 1) {
      const office = random() < 0.4;
      return {
        regionId,
        hasEmployees: true,
        hasPhysicalLocation: office,
        employeeCount: office ? employees() : 1 + Math.floor(random() * 12),
      };
    }
    return pickWeighted<LocationProfile>(random, [
      [{ regionId, hasEmployees: true, hasPhysicalLocation: false, employeeCount: 1 + Math.floor(random() * 5) }, 40],
      [{ regionId, hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 }, 20],
      [{ regionId, hasEmployees: null, hasPhysicalLocation: null, employeeCount: null }, 25],
      [{ regionId, hasEmployees: true, hasPhysicalLocation: null, employeeCount: null }, 15],
    ]);
  });
  return {
    id: newId(ID_PREFIX.legalEntity),
    entityType,
    taxClassification,
    incorporationRegion,
    incorporationDate,
    accountingYearEnd,
    locations,
  };
}

/** Bulk insert, not timed: one platform, the entities and their locations, in multi-row INSERTs from unnest. */
export async function seed(
  db: Db,
  today: Date,
  entities: number,
): Promise<{ platformId: string; entities: number; locations: number; byType: Record<string, number> }> {
  const random = prng(SEED);
  const platformId = newId(ID_PREFIX.platform);
  await db.insertInto('platforms').values({ id: platformId, name: 'Bench Platform' }).execute();
  const byType: Record<string, number> = {};
  let locations = 0;
  for (let start = 0; start < entities; start += INSERT_CHUNK) {
    const chunk = Array.from({ length: Math.min(INSERT_CHUNK, entities - start) }, (_, i) => entityProfile(random, start + i, today));
    for (const e of chunk) byType[e.entityType] = (byType[e.entityType] ?? 0) + 1;
    const col = <T>(f: (e: EntityProfile, i: number) => T) => chunk.map((e, i) => f(e, start + i));
    await sql`
      insert into legal_entities (id, platform_id, status, business_name, user_email, entity_type, tax_classification,
                                  incorporation_region, incorporation_date, accounting_year_end, activated_at, created_at, updated_at)
      select id, ${platformId}, 'active', name, email, entity_type, tax_classification, incorporation_region, incorporation_date,
             accounting_year_end, ${today}, ${today}, ${today}
      from unnest(${col((e) => e.id)}::text[], ${col((_, i) => `Bench Business ${i + 1}`)}::text[],
                  ${col((_, i) => `owner${i + 1}@bench.example`)}::text[], ${col((e) => e.entityType)}::text[],
                  ${col((e) => e.taxClassification)}::text[], ${col((e) => e.incorporationRegion)}::text[],
                  ${col((e) => e.incorporationDate)}::date[], ${col((e) => e.accountingYearEnd)}::smallint[])
        as t(id, name, email, entity_type, tax_classification, incorporation_region, incorporation_date, accounting_year_end)
    `.execute(db);
    const rows = chunk.flatMap((e) => e.locations.map((l) => ({ entityId: e.id, ...l })));
    locations += rows.length;
    await sql`
      insert into legal_entity_locations (legal_entity_id, region_id, has_employees, has_physical_location, employee_count, created_at, updated_at)
      select legal_entity_id, region_id, has_employees, has_physical_location, employee_count, ${today}, ${today}
      from unnest(${rows.map((r) => r.entityId)}::text[], ${rows.map((r) => r.regionId)}::text[], ${rows.map((r) => r.hasEmployees)}::boolean[],
                  ${rows.map((r) => r.hasPhysicalLocation)}::boolean[], ${rows.map((r) => r.employeeCount)}::integer[])
        as t(legal_entity_id, region_id, has_employees, has_physical_location, employee_count)
    `.execute(db);
  }
  await sql`analyze legal_entities, legal_entity_locations, tasks`.execute(db);
  return { platformId, entities, locations, byType };
}
