/**
 * The automations bench's entities, untimed (bench/automations.ts): a platform of its own with an API key, one
 * Delaware C corporation per automation with an office and employees in California, bulk-inserted like the task
 * generation's book (bench/generation-seed.ts) and planned by the planning service, then one access token each
 * through POST /accounts/auth, as a platform would get them.
 */
import { sql } from 'kysely';
import { loadCatalog } from '../src/catalog/catalog.js';
import { REGIONS } from '../src/catalog/regions.js';
import type { Db } from '../src/db/database.js';
import { newId, ID_PREFIX } from '../src/lib/ids.js';
import { BATCH_SIZE, createPlanningModule } from '../src/modules/planning/index.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createTaskEvents, plannedTaskStore } from '../src/modules/tasks/index.js';
import { plannedEntityStore } from '../src/modules/legal-entities/index.js';
import { createPlatformsModule } from '../src/modules/platforms/index.js';
import { expectStatus, request } from './http-client.js';

export const AUTOMATIONS_PLATFORM_NAME = 'Bench Automations';

/**
 * The two automatable California requirements every such entity has, in turn: the payroll registration (a sealed
 * SSN field; outputs an account with two data values, a login and a confirmation) and the foreign qualification
 * (an account with the entity number and a confirmation; completing it unlocks the Statement of Information).
 */
export const BENCH_FILINGS = [
  {
    requirementId: 'ca-edd-employer-registration',
    input: { first_payroll_date: '2026-12-01', officer_name: 'Ada Lovelace', officer_ssn_last4: '4821' },
    login: true,
  },
  {
    requirementId: 'ca-foreign-qualification-corporation',
    input: {
      registered_agent_name: 'Harbor Agents Inc',
      principal_office_address: '1 Main St, Dover, DE 19901',
      good_standing_certificate_date: '2026-11-02',
    },
    login: false,
  },
] as const;

export interface AutomationJob {
  legalEntityId: string;
  taskId: string;
  token: string;
  filing: (typeof BENCH_FILINGS)[number];
}

const CA_REGION_ID = REGIONS.find((r) => r.code === 'CA')!.id;
const INSERT_CHUNK = 2000;

/** One entity per automation; entity i automates BENCH_FILINGS[i % 2]. */
export async function seedAutomationEntities(
  db: Db,
  baseUrl: string,
  count: number,
): Promise<{ platformId: string; jobs: AutomationJob[] }> {
  const { platform, apiKey } = await createPlatformsModule({ db }).platforms.create(AUTOMATIONS_PLATFORM_NAME);
  const today = new Date();
  const ids = Array.from({ length: count }, () => newId(ID_PREFIX.legalEntity));
  for (let start = 0; start < count; start += INSERT_CHUNK) {
    const chunk = ids.slice(start, start + INSERT_CHUNK);
    const names = chunk.map((_, i) => `Bench Filer ${start + i + 1} Inc`);
    await sql`
      insert into legal_entities (id, platform_id, status, business_name, user_email, entity_type, tax_classification, ein,
                                  incorporation_region, incorporation_date, accounting_year_end, activated_at, created_at, updated_at)
      select id, ${platform.id}, 'active', name, 'owner@filer.example', 'c_corp', 'corp', '12-3456789', 'DE', '2020-01-15', 12, ${today}, ${today}, ${today}
      from unnest(${chunk}::text[], ${names}::text[]) as t(id, name)
    `.execute(db);
    await sql`
      insert into legal_entity_locations (legal_entity_id, region_id, has_employees, has_physical_location, employee_count, created_at, updated_at)
      select id, ${CA_REGION_ID}, true, true, 8, ${today}, ${today} from unnest(${chunk}::text[]) as t(id)
    `.execute(db);
  }
  const catalog = loadCatalog();
  const taskEvents = createTaskEvents({ catalog, publicBaseUrl: baseUrl, events: createEventsService() });
  const { planning } = createPlanningModule({
    db,
    catalog,
    now: () => new Date(),
    taskEvents,
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
  });
  for (let start = 0; start < count; start += BATCH_SIZE) await planning.replanBatch(ids.slice(start, start + BATCH_SIZE));

  const tasks = await sql<{ legal_entity_id: string; definition_id: string; id: string }>`
    select legal_entity_id, definition_id, id from tasks
    where legal_entity_id = any(${ids}::text[]) and definition_id = any(${BENCH_FILINGS.map((f) => f.requirementId)}::text[])
  `.execute(db);
  const taskOf = new Map(tasks.rows.map((t) => [`${t.legal_entity_id}:${t.definition_id}`, t.id]));

  const jobs: AutomationJob[] = [];
  for (const [i, legalEntityId] of ids.entries()) {
    const filing = BENCH_FILINGS[i % BENCH_FILINGS.length]!;
    const taskId = taskOf.get(`${legalEntityId}:${filing.requirementId}`);
    if (!taskId)
      throw new Error(
        `entity ${legalEntityId} has no ${filing.requirementId} task: the catalog changed, pick another automatable requirement`,
      );
    const auth = await request(`${baseUrl}/accounts/auth`, {
      method: 'POST',
      headers: { authorization: apiKey.key, 'content-type': 'application/json' },
      body: JSON.stringify({ legal_entity_id: legalEntityId }),
    });
    expectStatus(auth, 200, `POST /accounts/auth (automations entity ${i + 1})`);
    const token = (JSON.parse(auth.body.toString('utf8')) as { access_token: string }).access_token;
    jobs.push({ legalEntityId, taskId, token, filing });
  }
  return { platformId: platform.id, jobs };
}
