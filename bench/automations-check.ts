/**
 * After the automations step: every automation's outputs written exactly once. Each bench entity has one
 * automation, so per entity: one agency account, one confirmation document (mail item), one login for the
 * filings that issue one (none otherwise), one automation with one `complete` log line and its three step
 * records (submit, await_state, finalize), and the ids in its outputs are those rows.
 */
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import type { AutomationJob } from './automations-seed.js';

export interface OutputCheck {
  entities: number;
  accounts: number;
  documents: number;
  logins: number;
  stepRecords: number;
  /** Entities whose counts differ from the expected ones (the first few are described in `problems`). */
  wrong: number;
  problems: string[];
}

interface Row {
  id: string;
  accounts: number;
  documents: number;
  logins: number;
  automations: number;
  completes: number;
  steps: number;
  outputs_match: boolean;
}

export async function checkAutomationOutputs(db: Db, platformId: string, jobs: readonly AutomationJob[]): Promise<OutputCheck> {
  const { rows } = await sql<Row>`
    select e.id,
      (select count(*)::int from agency_accounts x where x.legal_entity_id = e.id) as accounts,
      (select count(*)::int from mail_items m where m.legal_entity_id = e.id) as documents,
      (select count(*)::int from account_logins l where l.legal_entity_id = e.id) as logins,
      (select count(*)::int from automations a where a.legal_entity_id = e.id) as automations,
      (select count(*)::int from automation_status_logs s join automations a on a.id = s.automation_id
        where a.legal_entity_id = e.id and s.status = 'complete') as completes,
      (select count(*)::int from automation_steps t join automations a on a.id = t.automation_id where a.legal_entity_id = e.id) as steps,
      coalesce((select bool_and(
          a.outputs->>'agency_account_id' in (select x.id from agency_accounts x where x.legal_entity_id = e.id)
          and a.outputs->>'document_id' in (select m.id from mail_items m where m.legal_entity_id = e.id))
        from automations a where a.legal_entity_id = e.id), false) as outputs_match
    from legal_entities e where e.platform_id = ${platformId}
  `.execute(db);
  const loginExpected = new Map(jobs.map((j) => [j.legalEntityId, j.filing.login ? 1 : 0]));
  const problems: string[] = [];
  let wrong = 0;
  for (const r of rows) {
    const expected = { accounts: 1, documents: 1, logins: loginExpected.get(r.id) ?? 0, automations: 1, completes: 1, steps: 3 };
    const off = (Object.keys(expected) as (keyof typeof expected)[])
      .filter((k) => r[k] !== expected[k])
      .map((k) => `${k} ${r[k]} (expected ${expected[k]})`);
    if (!r.outputs_match) off.push("its outputs do not name the entity's account and document");
    if (off.length === 0) continue;
    wrong += 1;
    if (problems.length < 5) problems.push(`entity ${r.id}: ${off.join(', ')}`);
  }
  if (rows.length !== jobs.length) problems.push(`${rows.length} bench entities found, ${jobs.length} seeded`);
  if (wrong > problems.length) problems.push(`… ${wrong} entities in all with missing or duplicate outputs`);
  const sum = (k: keyof Row) => rows.reduce((s, r) => s + Number(r[k]), 0);
  return {
    entities: rows.length,
    accounts: sum('accounts'),
    documents: sum('documents'),
    logins: sum('logins'),
    stepRecords: sum('steps'),
    wrong,
    problems,
  };
}
