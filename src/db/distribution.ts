/**
 * How each table of the `public` schema would be placed in a distributed PostgreSQL (Citus-style), the one
 * list that docs/scaling.md ("Beyond one machine") cites and test/sharding-ready.test.ts checks against the
 * catalog: a new table without a place here fails that test.
 *
 * - `reference`: small, copied to every node; referenced by foreign keys from distributed tables, never the
 *   other way round.
 * - `coordinator`: kept on one node (audit trail, bookkeeping, per-caller state); never joined to a shard.
 * - `distributed`: split by `column` (the tenant key). Its primary key and every unique constraint contain the
 *   column, and every foreign key to another table distributed the same way includes it on both sides, so a
 *   tenant's rows and their keys live on one node. `crossShardUnique` names the unique constraints that must stay
 *   installation-wide and therefore do not contain the column: each is a lookup with no tenant known yet, and
 *   docs/scaling.md gives its design before the table can be distributed.
 */
export type TablePlacement =
  | { kind: 'reference' }
  | { kind: 'coordinator'; why: string }
  | {
      kind: 'distributed';
      column: 'legal_entity_id' | 'platform_id' | 'id';
      colocatedWith: 'legal_entities' | 'platforms';
      crossShardUnique?: readonly string[];
    };

const byEntity = (crossShardUnique?: readonly string[]): TablePlacement => ({
  kind: 'distributed',
  column: 'legal_entity_id',
  colocatedWith: 'legal_entities',
  ...(crossShardUnique && { crossShardUnique }),
});
const byPlatform = (crossShardUnique?: readonly string[]): TablePlacement => ({
  kind: 'distributed',
  column: 'platform_id',
  colocatedWith: 'platforms',
  ...(crossShardUnique && { crossShardUnique }),
});

export const tablePlacements: Readonly<Record<string, TablePlacement>> = {
  // Reference tables: the platforms and everything an operator or a platform key is checked against.
  platforms: { kind: 'reference' },
  api_keys: { kind: 'reference' },
  platform_callback_origins: { kind: 'reference' },
  platform_brands: { kind: 'reference' },
  instance_secrets: { kind: 'reference' },
  catalog_versions: { kind: 'reference' },
  catalog_releases: { kind: 'reference' },
  operator_keys: { kind: 'reference' },
  operator_sessions: { kind: 'reference' },
  operator_login_links: { kind: 'reference' },
  // The console's users, sessions and invitations: found by e-mail or a token's hash before the platform is known.
  console_users: { kind: 'reference' },
  console_sessions: { kind: 'reference' },
  console_invites: { kind: 'reference' },

  // On the coordinator only.
  operator_audit_events: { kind: 'coordinator', why: "the operators' trail, read newest first across every tenant" },
  idempotency_keys: { kind: 'coordinator', why: 'keyed by the caller (a platform or an operator key), pruned by age' },
  event_dispatch_state: { kind: 'coordinator', why: 'the one-row cursor of the webhook fan-out' },
  kysely_migration: { kind: 'coordinator', why: "the migrator's bookkeeping" },
  kysely_migration_lock: { kind: 'coordinator', why: "the migrator's bookkeeping" },
  rate_limit_counters: { kind: 'coordinator', why: 'installation-wide request counters per caller, shared by every process' },

  // Distributed by the legal entity: every per-business read and write stays on one node.
  legal_entities: {
    kind: 'distributed',
    column: 'id',
    colocatedWith: 'legal_entities',
    // A platform's own id for a company is unique per platform, and a platform's entities span every node.
    crossShardUnique: ['legal_entities_external_company_id_key'],
  },
  legal_entity_locations: byEntity(),
  task_list_versions: byEntity(),
  tasks: byEntity(),
  automations: byEntity(),
  automation_status_logs: byEntity(),
  automation_steps: byEntity(),
  agency_accounts: byEntity(),
  account_logins: byEntity(),
  login_reveals: byEntity(),
  account_connections: byEntity(),
  account_connection_events: byEntity(),
  mail_items: byEntity(),
  // A link's token is looked up by its hash before anything says which business it belongs to.
  hosted_sessions: byEntity(['hosted_sessions_token_hash_key']),
  hosted_browser_sessions: byEntity(['hosted_browser_sessions_token_hash_key']),
  calendar_feeds: byEntity(['calendar_feeds_token_hash_key']),
  handbook_drafts: byEntity(),
  handbook_employees: byEntity(),
  handbook_versions: byEntity(),
  handbook_acknowledgements: byEntity(),
  handbook_ack_links: byEntity(['handbook_ack_links_token_hash_key']),
  test_clocks: byEntity(),

  // Distributed by the platform: the events outbox and the webhooks it feeds.
  events: byPlatform(),
  webhook_endpoints: byPlatform(),
  webhook_endpoint_secrets: byPlatform(),
  webhook_deliveries: byPlatform(),
  webhook_attempts: byPlatform(),
  // A platform's imports of its book (docs/imports.md).
  imports: byPlatform(),
  import_rows: byPlatform(),
  // What a platform's console users did: read by the platform only.
  console_audit_events: byPlatform(),
  // Each platform's API requests (docs/request-logs.md).
  request_logs: byPlatform(),
};
