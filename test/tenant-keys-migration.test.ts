import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationDatabase } from './helpers/migration-database.js';

const TENANT_KEYS = '20261128120000_tenant-keys';

/** Every table a business's rows are in, with the rows of two businesses made before the tenant keys. */
const SEED = sql`
  insert into platforms (id, name) values ('plt_1', 'Acme');
  insert into legal_entities (id, platform_id, status, business_name) values
    ('le_1', 'plt_1', 'active', 'Harbor Labs'), ('le_2', 'plt_1', 'active', 'Pier Works');
  insert into tasks (id, legal_entity_id, kind, definition_id, region_code, period_key) values
    ('task_1', 'le_1', 'requirement', 'ca-edd-employer-registration', 'CA', 'once'),
    ('task_2', 'le_2', 'requirement', 'ca-edd-employer-registration', 'CA', 'once');
  insert into automations (id, task_id, legal_entity_id, platform_id, requirement_id, region_code, agency_id, fulfilment, performer, status) values
    ('aut_1', 'task_1', 'le_1', 'plt_1', 'ca-edd-employer-registration', 'CA', 'ca-edd', 'operator', 'operator', 'started'),
    ('aut_2', 'task_2', 'le_2', 'plt_1', 'ca-edd-employer-registration', 'CA', 'ca-edd', 'operator', 'operator', 'started');
  insert into automation_status_logs (automation_id, status, actor) values ('aut_1', 'started', 'owner'), ('aut_2', 'started', 'owner');
  insert into automation_steps (automation_id, step_key) values ('aut_1', 'submit:0'), ('aut_2', 'submit:0');
  insert into agency_accounts (id, legal_entity_id, region_code, agency_id, name) values ('acc_1', 'le_1', 'CA', 'ca-edd', 'EDD');
  insert into account_logins (id, legal_entity_id, agency_account_id, region_code, name, login_url, secret_ciphertext, secret_iv, secret_tag, key_id, secret_aad_version)
    values ('lgn_1', 'le_1', 'acc_1', 'CA', 'EDD', 'https://edd.example', '\\x00', '\\x00', '\\x00', 'k1', 2);
  insert into login_reveals (id, login_id, legal_entity_id, platform_id, hosted_session_id, browser_session_id) values ('rev_1', 'lgn_1', 'le_1', 'plt_1', 'hs_1', 'hbs_1');
  insert into account_connections (id, legal_entity_id, platform_id, agency_account_id, login_id, status) values ('con_1', 'le_1', 'plt_1', 'acc_1', 'lgn_1', 'connected');
  insert into account_connection_events (connection_id, from_status, to_status) values ('con_1', null, 'pending'), ('con_1', 'pending', 'connected');
  insert into hosted_sessions (id, purpose, legal_entity_id, token_hash, expires_at) values ('hs_1', 'tasks', 'le_1', '\\x01', now() + interval '1 hour');
  insert into hosted_browser_sessions (id, token_hash, hosted_session_id, legal_entity_id, purpose, expires_at) values ('hbs_1', '\\x02', 'hs_1', 'le_1', 'tasks', now() + interval '1 hour');
  insert into events (id, platform_id, legal_entity_id, type, data) values ('evt_1', 'plt_1', 'le_1', 'task.created', '{}');
  insert into webhook_endpoints (id, platform_id, url) values ('we_1', 'plt_1', 'https://hooks.example/a');
  insert into webhook_endpoint_secrets (id, endpoint_id, sealed, iv, tag, key_id) values ('whs_1', 'we_1', '\\x00', '\\x00', '\\x00', 'k1');
  insert into webhook_deliveries (id, endpoint_id, event_id, platform_id) values ('del_1', 'we_1', 'evt_1', 'plt_1');
  insert into webhook_attempts (delivery_id, trigger, latency_ms) values ('del_1', 'automatic', 12);
  insert into handbook_employees (legal_entity_id, id, name) values ('le_1', 'emp_1', 'Ada');
  insert into handbook_versions (legal_entity_id, id, number, document, regions) values ('le_1', 'hv_1', 1, '{}', '{CA}');
  insert into handbook_ack_links (token_hash, legal_entity_id, employee_id, version_id) values ('\\x03', 'le_1', 'emp_1', 'hv_1');
`;

describe('migration 20261128120000: the tenant key in every key of the tenant tables', () => {
  const migration = migrationDatabase('tenant_keys', TENANT_KEYS);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an earlier version
  let db: Kysely<any>;
  const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;
  const failure = (query: string) =>
    sql
      .raw(query)
      .execute(db)
      .then(
        () => null,
        (error: { code?: string; constraint?: string }) => ({ code: error.code, constraint: error.constraint }),
      );

  it('fills the new tenant columns from their parents on a database with data, and every key then holds to one tenant', async () => {
    const created = await migration.create();
    db = created.db;
    expect(created.error).toBeUndefined();
    await SEED.execute(db);
    expect(await migration.toLatest()).toBeUndefined();

    expect(await rows('select automation_id, legal_entity_id from automation_status_logs order by automation_id')).toEqual([
      { automation_id: 'aut_1', legal_entity_id: 'le_1' },
      { automation_id: 'aut_2', legal_entity_id: 'le_2' },
    ]);
    expect(await rows('select automation_id, legal_entity_id from automation_steps order by automation_id')).toEqual([
      { automation_id: 'aut_1', legal_entity_id: 'le_1' },
      { automation_id: 'aut_2', legal_entity_id: 'le_2' },
    ]);
    expect(await rows('select distinct legal_entity_id from account_connection_events')).toEqual([{ legal_entity_id: 'le_1' }]);
    expect(await rows('select platform_id from webhook_endpoint_secrets')).toEqual([{ platform_id: 'plt_1' }]);
    expect(await rows('select platform_id from webhook_attempts')).toEqual([{ platform_id: 'plt_1' }]);

    // A row can no longer point at another business's parent, nor go without its tenant.
    expect(
      await failure(
        `insert into automation_status_logs (automation_id, legal_entity_id, status, actor) values ('aut_1', 'le_2', 'started', 'owner')`,
      ),
    ).toEqual({ code: '23503', constraint: 'automation_status_logs_automation_id_fkey' });
    expect(
      await failure(`insert into automations (id, task_id, legal_entity_id, platform_id, requirement_id, region_code, agency_id, fulfilment, performer, status)
      values ('aut_x', 'task_1', 'le_2', 'plt_1', 'r', 'CA', 'a', 'operator', 'operator', 'started')`),
    ).toEqual({ code: '23503', constraint: 'automations_task_id_fkey' });
    expect(await failure(`insert into automation_steps (automation_id, step_key) values ('aut_1', 'later')`)).toMatchObject({
      code: '23502',
    });
    // Installation-wide uniques keep their meaning: a token hash is unique whatever the business.
    expect(
      await failure(
        `insert into hosted_sessions (id, purpose, legal_entity_id, token_hash, expires_at) values ('hs_2', 'tasks', 'le_2', '\\x01', now())`,
      ),
    ).toEqual({ code: '23505', constraint: 'hosted_sessions_token_hash_key' });
    expect(
      await failure(
        `insert into handbook_ack_links (token_hash, legal_entity_id, employee_id, version_id) values ('\\x04', 'le_1', 'emp_1', 'hv_1')`,
      ),
    ).toEqual({ code: '23505', constraint: 'handbook_ack_links_pkey' });
    // At most one live automation per task, as before.
    expect(
      await failure(`insert into automations (id, task_id, legal_entity_id, platform_id, requirement_id, region_code, agency_id, fulfilment, performer, status)
      values ('aut_y', 'task_1', 'le_1', 'plt_1', 'r', 'CA', 'a', 'operator', 'operator', 'started')`),
    ).toEqual({ code: '23505', constraint: 'automations_live_task_idx' });

    // Deleting a login clears only the login column of what pointed at it; the tenant stays.
    await sql`delete from account_logins where id = 'lgn_1'`.execute(db);
    expect(await rows(`select login_id, legal_entity_id from account_connections`)).toEqual([{ login_id: null, legal_entity_id: 'le_1' }]);
    expect(await rows(`select count(*)::int as n from login_reveals`)).toEqual([{ n: 0 }]);
    // Deleting a business still takes everything of it along, through the composite keys.
    await sql`delete from legal_entities where id = 'le_1'`.execute(db);
    for (const table of [
      'tasks',
      'automations',
      'automation_status_logs',
      'automation_steps',
      'account_connections',
      'account_connection_events',
      'hosted_browser_sessions',
      'handbook_ack_links',
    ]) {
      expect({ table, rows: await rows(`select count(*)::int as n from ${table} where legal_entity_id = 'le_1'`) }).toEqual({
        table,
        rows: [{ n: 0 }],
      });
    }
    expect(await rows(`select count(*)::int as n from automation_status_logs`)).toEqual([{ n: 1 }]);
    await sql`delete from webhook_endpoints where id = 'we_1'`.execute(db);
    expect(
      await rows(
        `select (select count(*) from webhook_endpoint_secrets)::int as secrets, (select count(*) from webhook_attempts)::int as attempts`,
      ),
    ).toEqual([{ secrets: 0, attempts: 0 }]);
  });

  it('goes back down and up again', async () => {
    expect(await migration.toBefore()).toBeUndefined();
    expect(
      await rows(
        `select count(*)::int as n from information_schema.columns where table_name = 'automation_status_logs' and column_name = 'legal_entity_id'`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(await migration.toLatest()).toBeUndefined();
    expect(await rows(`select automation_id, legal_entity_id from automation_status_logs`)).toEqual([
      { automation_id: 'aut_2', legal_entity_id: 'le_2' },
    ]);
  });
});
