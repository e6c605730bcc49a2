import { sql, type Kysely } from 'kysely';

// Frozen in time: migrations take Kysely<any> and import nothing from src/modules.

/**
 * The tenant key in every primary key, unique constraint and foreign key of a tenant table (src/db/distribution.ts,
 * docs/scaling.md "Beyond one machine"), so that a distributed PostgreSQL can split the tables by tenant as they are.
 *
 * Keys become (id, tenant), id first: every lookup by id alone keeps the index it has today, and a tenant-first
 * lookup (tenant and id) uses the same index. Per-tenant scans keep their own indexes (tenant first).
 * Tables that had no tenant column get one, filled from their parent, NOT NULL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- 1. Foreign keys onto the single-column keys go first (they depend on those keys' indexes).
    alter table automations drop constraint automations_task_id_fkey;
    alter table automation_status_logs drop constraint automation_status_logs_automation_id_fkey;
    alter table automation_steps drop constraint automation_steps_automation_id_fkey;
    alter table account_logins drop constraint account_logins_agency_account_id_fkey;
    alter table account_connections drop constraint account_connections_agency_account_id_fkey,
      drop constraint account_connections_login_id_fkey;
    alter table login_reveals drop constraint login_reveals_login_id_fkey;
    alter table account_connection_events drop constraint account_connection_events_connection_id_fkey;
    alter table hosted_browser_sessions drop constraint hosted_browser_sessions_hosted_session_id_fkey;
    alter table webhook_endpoint_secrets drop constraint webhook_endpoint_secrets_endpoint_id_fkey;
    alter table webhook_deliveries drop constraint webhook_deliveries_endpoint_id_fkey,
      drop constraint webhook_deliveries_event_id_fkey;
    alter table webhook_attempts drop constraint webhook_attempts_delivery_id_fkey;

    -- 2. The tenant column where it was missing, from the parent row (the foreign keys kept orphans out).
    alter table automation_status_logs add column legal_entity_id text;
    update automation_status_logs c set legal_entity_id = p.legal_entity_id from automations p where p.id = c.automation_id;
    alter table automation_status_logs alter column legal_entity_id set not null;

    alter table automation_steps add column legal_entity_id text;
    update automation_steps c set legal_entity_id = p.legal_entity_id from automations p where p.id = c.automation_id;
    alter table automation_steps alter column legal_entity_id set not null;

    alter table account_connection_events add column legal_entity_id text;
    update account_connection_events c set legal_entity_id = p.legal_entity_id from account_connections p where p.id = c.connection_id;
    alter table account_connection_events alter column legal_entity_id set not null;

    alter table webhook_endpoint_secrets add column platform_id text;
    update webhook_endpoint_secrets c set platform_id = p.platform_id from webhook_endpoints p where p.id = c.endpoint_id;
    alter table webhook_endpoint_secrets alter column platform_id set not null;

    alter table webhook_attempts add column platform_id text;
    update webhook_attempts c set platform_id = p.platform_id from webhook_deliveries p where p.id = c.delivery_id;
    alter table webhook_attempts alter column platform_id set not null;

    -- 3. Primary keys and unique constraints with the tenant in them.
    alter table tasks drop constraint tasks_pkey, add primary key (id, legal_entity_id);
    alter table automations drop constraint automations_pkey, add primary key (id, legal_entity_id);
    drop index automations_live_task_idx;
    create unique index automations_live_task_idx on automations (task_id, legal_entity_id) where status not in ('complete', 'canceled');
    alter table automation_status_logs drop constraint automation_status_logs_pkey, add primary key (id, legal_entity_id);
    alter table automation_steps drop constraint automation_steps_pkey, add primary key (automation_id, step_key, legal_entity_id);
    alter table agency_accounts drop constraint agency_accounts_pkey, add primary key (id, legal_entity_id);
    alter table account_logins drop constraint account_logins_pkey, add primary key (id, legal_entity_id);
    alter table login_reveals drop constraint login_reveals_pkey, add primary key (id, legal_entity_id);
    alter table account_connections drop constraint account_connections_pkey, add primary key (id, legal_entity_id);
    alter table account_connection_events drop constraint account_connection_events_pkey, add primary key (id, legal_entity_id);
    alter table mail_items drop constraint mail_items_pkey, add primary key (id, legal_entity_id);
    alter table hosted_sessions drop constraint hosted_sessions_pkey, add primary key (id, legal_entity_id);
    alter table hosted_browser_sessions drop constraint hosted_browser_sessions_pkey, add primary key (id, legal_entity_id);
    alter table calendar_feeds drop constraint calendar_feeds_pkey, add primary key (id, legal_entity_id);
    -- An acknowledgement link is one per employee and version; its token hash stays unique installation-wide.
    alter table handbook_ack_links drop constraint handbook_ack_links_pkey,
      drop constraint handbook_ack_links_legal_entity_id_employee_id_version_id_key,
      add primary key (legal_entity_id, employee_id, version_id),
      add constraint handbook_ack_links_token_hash_key unique (token_hash);

    alter table events drop constraint events_pkey, add primary key (id, platform_id),
      drop constraint events_seq_key, add constraint events_seq_key unique (seq, platform_id);
    alter table webhook_endpoints drop constraint webhook_endpoints_pkey, add primary key (id, platform_id);
    alter table webhook_endpoint_secrets drop constraint webhook_endpoint_secrets_pkey, add primary key (id, platform_id);
    alter table webhook_deliveries drop constraint webhook_deliveries_pkey, add primary key (id, platform_id),
      drop constraint webhook_deliveries_endpoint_id_event_id_key,
      add constraint webhook_deliveries_endpoint_id_event_id_key unique (endpoint_id, event_id, platform_id);
    alter table webhook_attempts drop constraint webhook_attempts_pkey, add primary key (id, platform_id);

    -- 4. The foreign keys again, tenant on both sides. SET NULL names the one column it clears (the tenant stays).
    alter table automations add constraint automations_task_id_fkey
      foreign key (task_id, legal_entity_id) references tasks (id, legal_entity_id) on delete cascade;
    alter table automation_status_logs add constraint automation_status_logs_automation_id_fkey
      foreign key (automation_id, legal_entity_id) references automations (id, legal_entity_id) on delete cascade;
    alter table automation_steps add constraint automation_steps_automation_id_fkey
      foreign key (automation_id, legal_entity_id) references automations (id, legal_entity_id) on delete cascade;
    alter table account_logins add constraint account_logins_agency_account_id_fkey
      foreign key (agency_account_id, legal_entity_id) references agency_accounts (id, legal_entity_id) on delete set null (agency_account_id);
    alter table account_connections add constraint account_connections_agency_account_id_fkey
      foreign key (agency_account_id, legal_entity_id) references agency_accounts (id, legal_entity_id) on delete cascade;
    alter table account_connections add constraint account_connections_login_id_fkey
      foreign key (login_id, legal_entity_id) references account_logins (id, legal_entity_id) on delete set null (login_id);
    alter table login_reveals add constraint login_reveals_login_id_fkey
      foreign key (login_id, legal_entity_id) references account_logins (id, legal_entity_id) on delete cascade;
    alter table account_connection_events add constraint account_connection_events_connection_id_fkey
      foreign key (connection_id, legal_entity_id) references account_connections (id, legal_entity_id) on delete cascade;
    alter table hosted_browser_sessions add constraint hosted_browser_sessions_hosted_session_id_fkey
      foreign key (hosted_session_id, legal_entity_id) references hosted_sessions (id, legal_entity_id) on delete cascade;
    alter table webhook_endpoint_secrets add constraint webhook_endpoint_secrets_endpoint_id_fkey
      foreign key (endpoint_id, platform_id) references webhook_endpoints (id, platform_id) on delete cascade;
    alter table webhook_deliveries add constraint webhook_deliveries_endpoint_id_fkey
      foreign key (endpoint_id, platform_id) references webhook_endpoints (id, platform_id) on delete cascade;
    alter table webhook_deliveries add constraint webhook_deliveries_event_id_fkey
      foreign key (event_id, platform_id) references events (id, platform_id) on delete cascade;
    alter table webhook_attempts add constraint webhook_attempts_delivery_id_fkey
      foreign key (delivery_id, platform_id) references webhook_deliveries (id, platform_id) on delete cascade;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table automations drop constraint automations_task_id_fkey;
    alter table automation_status_logs drop constraint automation_status_logs_automation_id_fkey;
    alter table automation_steps drop constraint automation_steps_automation_id_fkey;
    alter table account_logins drop constraint account_logins_agency_account_id_fkey;
    alter table account_connections drop constraint account_connections_agency_account_id_fkey,
      drop constraint account_connections_login_id_fkey;
    alter table login_reveals drop constraint login_reveals_login_id_fkey;
    alter table account_connection_events drop constraint account_connection_events_connection_id_fkey;
    alter table hosted_browser_sessions drop constraint hosted_browser_sessions_hosted_session_id_fkey;
    alter table webhook_endpoint_secrets drop constraint webhook_endpoint_secrets_endpoint_id_fkey;
    alter table webhook_deliveries drop constraint webhook_deliveries_endpoint_id_fkey,
      drop constraint webhook_deliveries_event_id_fkey;
    alter table webhook_attempts drop constraint webhook_attempts_delivery_id_fkey;

    alter table tasks drop constraint tasks_pkey, add primary key (id);
    alter table automations drop constraint automations_pkey, add primary key (id);
    drop index automations_live_task_idx;
    create unique index automations_live_task_idx on automations (task_id) where status not in ('complete', 'canceled');
    alter table automation_status_logs drop constraint automation_status_logs_pkey, add primary key (id), drop column legal_entity_id;
    alter table automation_steps drop constraint automation_steps_pkey, add primary key (automation_id, step_key), drop column legal_entity_id;
    alter table agency_accounts drop constraint agency_accounts_pkey, add primary key (id);
    alter table account_logins drop constraint account_logins_pkey, add primary key (id);
    alter table login_reveals drop constraint login_reveals_pkey, add primary key (id);
    alter table account_connections drop constraint account_connections_pkey, add primary key (id);
    alter table account_connection_events drop constraint account_connection_events_pkey, add primary key (id), drop column legal_entity_id;
    alter table mail_items drop constraint mail_items_pkey, add primary key (id);
    alter table hosted_sessions drop constraint hosted_sessions_pkey, add primary key (id);
    alter table hosted_browser_sessions drop constraint hosted_browser_sessions_pkey, add primary key (id);
    alter table calendar_feeds drop constraint calendar_feeds_pkey, add primary key (id);
    alter table handbook_ack_links drop constraint handbook_ack_links_pkey, drop constraint handbook_ack_links_token_hash_key,
      add primary key (token_hash), add unique (legal_entity_id, employee_id, version_id);
    alter table events drop constraint events_pkey, add primary key (id),
      drop constraint events_seq_key, add constraint events_seq_key unique (seq);
    alter table webhook_endpoints drop constraint webhook_endpoints_pkey, add primary key (id);
    alter table webhook_endpoint_secrets drop constraint webhook_endpoint_secrets_pkey, add primary key (id), drop column platform_id;
    alter table webhook_deliveries drop constraint webhook_deliveries_pkey, add primary key (id),
      drop constraint webhook_deliveries_endpoint_id_event_id_key, add unique (endpoint_id, event_id);
    alter table webhook_attempts drop constraint webhook_attempts_pkey, add primary key (id), drop column platform_id;

    alter table automations add foreign key (task_id) references tasks (id) on delete cascade;
    alter table automation_status_logs add foreign key (automation_id) references automations (id) on delete cascade;
    alter table automation_steps add foreign key (automation_id) references automations (id) on delete cascade;
    alter table account_logins add foreign key (agency_account_id) references agency_accounts (id) on delete set null;
    alter table account_connections add foreign key (agency_account_id) references agency_accounts (id) on delete cascade,
      add foreign key (login_id) references account_logins (id) on delete set null;
    alter table login_reveals add foreign key (login_id) references account_logins (id) on delete cascade;
    alter table account_connection_events add foreign key (connection_id) references account_connections (id) on delete cascade;
    alter table hosted_browser_sessions add foreign key (hosted_session_id) references hosted_sessions (id) on delete cascade;
    alter table webhook_endpoint_secrets add foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade;
    alter table webhook_deliveries add foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade,
      add foreign key (event_id) references events (id) on delete cascade;
    alter table webhook_attempts add foreign key (delivery_id) references webhook_deliveries (id) on delete cascade;
  `.execute(db);
}
