// The scale database's hot entity: made with the engine, like the main bench's (bench/scale-load.ts).
import { sql } from 'kysely';
import { REGIONS } from '../src/catalog/regions.js';
import type { Db } from '../src/db/database.js';
import { newId, ID_PREFIX } from '../src/lib/ids.js';
import type { PlanningService } from '../src/modules/planning/index.js';
import { TASK_LOCATION_ORDER, TASKS_PER_ENTITY } from './settings.js';

const taskCount = async (db: Db, id: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from tasks where legal_entity_id = ${id}`.execute(db)).rows[0]!.n;

/** The d entity of the main bench, made here with the engine: a Delaware C corp given employees and an office in one state after another. */
export async function hotEntity(db: Db, planning: PlanningService, platformId: string): Promise<{ id: string; tasks: number }> {
  const id = newId(ID_PREFIX.legalEntity);
  const now = new Date();
  await db
    .insertInto('legal_entities')
    .values({
      id,
      platform_id: platformId,
      status: 'active',
      business_name: 'Bench Tasks Inc',
      user_email: 'owner@bench-tasks.example',
      entity_type: 'c_corp',
      tax_classification: 'corp',
      incorporation_region: 'DE',
      incorporation_date: '2019-04-01',
      activated_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const regionId = new Map(REGIONS.map((r) => [r.code, r.id]));
  let tasks = 0;
  for (const code of TASK_LOCATION_ORDER) {
    if (tasks >= TASKS_PER_ENTITY) break;
    await db
      .insertInto('legal_entity_locations')
      .values({
        legal_entity_id: id,
        region_id: regionId.get(code)!,
        has_employees: true,
        has_physical_location: true,
        employee_count: 10,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await planning.replanBatch([id]);
    tasks = await taskCount(db, id);
  }
  return { id, tasks };
}
