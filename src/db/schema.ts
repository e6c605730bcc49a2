/**
 * The database's row types, for Kysely: one file per capability in src/db/schema/, gathered here
 * into `Database` so that the rest of the code imports them all from this one place.
 */
import type { Selectable } from 'kysely';
import type { AgencyAccountsTable, AccountLoginsTable, LoginRevealsTable } from './schema/accounts.js';
import type { HostedSessionsTable, HostedBrowserSessionsTable } from './schema/hosted.js';
import type {
  LegalEntitiesTable,
  LegalEntityLocationsTable,
  TasksTable,
  CatalogVersionsTable,
  CatalogReleasesTable,
} from './schema/legal-entities.js';
import type { AutomationsTable, AutomationStatusLogsTable, AutomationStepsTable } from './schema/automations.js';
import type { MailItemsTable, AccountConnectionsTable, AccountConnectionEventsTable } from './schema/mail-connections.js';
import type { OperatorSessionsTable, OperatorLoginLinksTable } from './schema/operator-sessions.js';
import type { ConsoleAuditEventsTable, ConsoleInvitesTable, ConsoleSessionsTable, ConsoleUsersTable } from './schema/console.js';
import type {
  EventsTable,
  WebhookEndpointsTable,
  WebhookEndpointSecretsTable,
  WebhookDeliveriesTable,
  WebhookAttemptsTable,
  EventDispatchStateTable,
} from './schema/events-webhooks.js';
import type { IdempotencyKeysTable } from './schema/idempotency.js';
import type { RequestLogsTable } from './schema/request-logs.js';
import type { ImportsTable, ImportRowsTable } from './schema/imports.js';
import type { CalendarFeedsTable } from './schema/calendar.js';
import type { PlatformBrandsTable } from './schema/branding.js';
import type { TestClocksTable } from './schema/test-clocks.js';
import type {
  HandbookDraftsTable,
  HandbookEmployeesTable,
  HandbookVersionsTable,
  HandbookAcknowledgementsTable,
  HandbookAckLinksTable,
} from './schema/handbook.js';
import type {
  PlatformsTable,
  ApiKeysTable,
  PlatformCallbackOriginsTable,
  OperatorKeysTable,
  OperatorAuditEventsTable,
  InstanceSecretsTable,
} from './schema/access.js';

export type * from './schema/access.js';
export type * from './schema/legal-entities.js';
export type * from './schema/hosted.js';
export type * from './schema/accounts.js';
export type * from './schema/mail-connections.js';
export type * from './schema/automations.js';
export type * from './schema/operator-sessions.js';
export type * from './schema/events-webhooks.js';
export type * from './schema/idempotency.js';
export type * from './schema/request-logs.js';
export type * from './schema/imports.js';
export type * from './schema/calendar.js';
export type * from './schema/branding.js';
export type * from './schema/handbook.js';
export type * from './schema/test-clocks.js';

/** Every table, by its name in SQL. */
export interface Database {
  platforms: PlatformsTable;
  api_keys: ApiKeysTable;
  legal_entities: LegalEntitiesTable;
  catalog_versions: CatalogVersionsTable;
  catalog_releases: CatalogReleasesTable;
  hosted_sessions: HostedSessionsTable;
  legal_entity_locations: LegalEntityLocationsTable;
  instance_secrets: InstanceSecretsTable;
  tasks: TasksTable;
  hosted_browser_sessions: HostedBrowserSessionsTable;
  platform_callback_origins: PlatformCallbackOriginsTable;
  agency_accounts: AgencyAccountsTable;
  account_logins: AccountLoginsTable;
  login_reveals: LoginRevealsTable;
  operator_keys: OperatorKeysTable;
  operator_audit_events: OperatorAuditEventsTable;
  operator_sessions: OperatorSessionsTable;
  operator_login_links: OperatorLoginLinksTable;
  mail_items: MailItemsTable;
  account_connections: AccountConnectionsTable;
  account_connection_events: AccountConnectionEventsTable;
  automations: AutomationsTable;
  automation_status_logs: AutomationStatusLogsTable;
  automation_steps: AutomationStepsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_endpoint_secrets: WebhookEndpointSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  event_dispatch_state: EventDispatchStateTable;
  idempotency_keys: IdempotencyKeysTable;
  request_logs: RequestLogsTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  calendar_feeds: CalendarFeedsTable;
  platform_brands: PlatformBrandsTable;
  handbook_drafts: HandbookDraftsTable;
  handbook_employees: HandbookEmployeesTable;
  handbook_versions: HandbookVersionsTable;
  handbook_acknowledgements: HandbookAcknowledgementsTable;
  handbook_ack_links: HandbookAckLinksTable;
  test_clocks: TestClocksTable;
  console_users: ConsoleUsersTable;
  console_sessions: ConsoleSessionsTable;
  console_invites: ConsoleInvitesTable;
  console_audit_events: ConsoleAuditEventsTable;
}

export type LegalEntityRow = Selectable<LegalEntitiesTable>;
export type LocationRow = Selectable<LegalEntityLocationsTable>;
export type TaskRow = Selectable<TasksTable>;
export type BrowserSessionRow = Selectable<HostedBrowserSessionsTable>;
export type AgencyAccountRow = Selectable<AgencyAccountsTable>;
export type MailItemRow = Selectable<MailItemsTable>;
export type ConnectionRow = Selectable<AccountConnectionsTable>;
export type AutomationRow = Selectable<AutomationsTable>;
