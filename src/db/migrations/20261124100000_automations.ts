import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- One durable workflow per start of a task's automation (docs/automations.md).
    create table automations (
      id text primary key,
      task_id text not null references tasks (id) on delete cascade,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      platform_id text not null,
      requirement_id text not null,
      region_code text not null,
      agency_id text not null,
      fulfilment text not null check (fulfilment in ('connector', 'operator')),
      -- a connector's name, or 'operator' (the operator queue)
      performer text not null,
      status text not null check (status in ('started', 'waiting_for_start_file_date', 'waiting_on_state', 'waiting_on_signature',
        'waiting_on_customer_response', 'complete', 'canceled')),
      status_reason text,
      customer_message text,
      customer_response text,
      -- the input without its sensitive fields; those are sealed below (vault, bound to this row's id)
      input jsonb not null default '{}',
      sealed_input bytea,
      sealed_input_iv bytea,
      sealed_input_tag bytea,
      sealed_input_key_id text,
      -- the step a connector performs next (null: nothing scheduled: final, or a person's turn), its round
      -- (an owner's answer starts a new one, so its step keys are new) and when it is due
      current_step text,
      round integer not null default 0,
      step_due_at timestamptz,
      -- the process performing the current step holds it until lease_until (never two at once)
      lease_token text,
      lease_until timestamptz,
      attempts integer not null default 0,
      last_error text,
      assigned_operator_key_id text,
      assigned_operator_name text,
      outputs jsonb,
      due_date date,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz
    );
    -- At most one live (not final) automation per task.
    create unique index automations_live_task_idx on automations (task_id) where status not in ('complete', 'canceled');
    create index automations_entity_task_idx on automations (legal_entity_id, task_id, created_at desc);
    create index automations_operator_queue_idx on automations (due_date, id) where performer = 'operator' and status not in ('complete', 'canceled');
    create index automations_scheduled_idx on automations (step_due_at) where current_step is not null;

    create table automation_status_logs (
      id bigserial primary key,
      automation_id text not null references automations (id) on delete cascade,
      status text not null,
      reason text,
      actor text not null,
      created_at timestamptz not null default clock_timestamp()
    );
    create index automation_status_logs_automation_idx on automation_status_logs (automation_id, id);

    -- The idempotency record: a step whose key is here has been performed and is never performed again.
    create table automation_steps (
      automation_id text not null references automations (id) on delete cascade,
      step_key text not null,
      result jsonb not null default '{}',
      created_at timestamptz not null default clock_timestamp(),
      primary key (automation_id, step_key)
    );

    -- The automations recorded before there were workers: nothing ever ran them, so they go to the operator
    -- queue. The agency is filled in from the catalog when read (a migration cannot read the catalog).
    insert into automations (id, task_id, legal_entity_id, platform_id, requirement_id, region_code, agency_id, fulfilment, performer,
      status, input, due_date, created_at, updated_at)
    select 'aut_' || substr(md5(a.task_id), 1, 24), a.task_id, a.legal_entity_id, e.platform_id, t.definition_id, t.region_code, '', 'connector', 'operator',
      case when a.status in ('started', 'waiting_for_start_file_date', 'waiting_on_state', 'waiting_on_signature', 'waiting_on_customer_response', 'complete', 'canceled')
        then a.status else 'started' end,
      a.input, t.due_date, a.created_at, a.updated_at
    from task_automations a join tasks t on t.id = a.task_id join legal_entities e on e.id = a.legal_entity_id;
    insert into automation_status_logs (automation_id, status, reason, actor, created_at)
    select 'aut_' || substr(md5(a.task_id), 1, 24), h.value->>'status', null, 'system', (h.value->>'updated_at')::timestamptz
    from task_automations a cross join lateral jsonb_array_elements(a.history) with ordinality h(value, n)
    where exists (select 1 from automations x where x.id = 'aut_' || substr(md5(a.task_id), 1, 24))
    order by a.task_id, h.n;
    insert into automation_status_logs (automation_id, status, reason, actor)
    select id, status, 'Started before automations were run: handed to the operator queue', 'system' from automations;
    drop table task_automations;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create table task_automations (
      task_id text primary key references tasks (id) on delete cascade,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      input jsonb not null,
      status text not null,
      history jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index task_automations_legal_entity_id_idx on task_automations (legal_entity_id);
    insert into task_automations (task_id, legal_entity_id, input, status, history, created_at, updated_at)
    select distinct on (a.task_id) a.task_id, a.legal_entity_id, a.input, a.status,
      coalesce((select jsonb_agg(jsonb_build_object('status', l.status, 'updated_at', l.created_at) order by l.id)
        from automation_status_logs l where l.automation_id = a.id), '[]'),
      a.created_at, a.updated_at
    from automations a order by a.task_id, a.created_at desc;
    drop table automation_steps;
    drop table automation_status_logs;
    drop table automations;
  `.execute(db);
}
