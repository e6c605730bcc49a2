import type { Migration } from 'kysely';
import * as core from './20261122100000_core.js';
import * as tasks from './20261122110000_tasks.js';
import * as hostedPages from './20261122120000_hosted-pages.js';
import * as agencyAccounts from './20261122130000_agency-accounts.js';
import * as loginReveals from './20261122140000_login-reveals.js';
import * as mailConnectionsOperators from './20261122150000_mail-connections-operators.js';
import * as sealedSecrets from './20261123100000_sealed-secrets.js';
import * as operatorAudit from './20261124090000_operator-audit.js';
import * as automations from './20261124100000_automations.js';
import * as operatorSessions from './20261124110000_operator-sessions.js';
import * as payrollSync from './20261124120000_payroll-sync.js';
import * as eventsWebhooks from './20261125090000_events-webhooks.js';
import * as idempotencyKeys from './20261125100000_idempotency-keys.js';
import * as calendarFeeds from './20261125110000_calendar-feeds.js';
import * as webhookDispatch from './20261125130000_webhook-dispatch.js';
import * as handbook from './20261126090000_handbook.js';
import * as platformBranding from './20261126100000_platform-branding.js';
import * as mailSubjectOpened from './20261126120000_mail-subject-opened.js';
import * as signupConfirmedSteps from './20261126130000_signup-confirmed-steps.js';
import * as taskRevision from './20261126150000_task-revision.js';
import * as taskDueDateBasis from './20261127090000_task-due-date-basis.js';
import * as taskListVersions from './20261128090000_task-list-versions.js';
import * as rateLimitCounters from './20261128090100_rate-limit-counters.js';
import * as incrementalRollForward from './20261128100000_incremental-roll-forward.js';
import * as tenantKeys from './20261128120000_tenant-keys.js';
import * as eventsInlinePayloads from './20261128130000_events-inline-payloads.js';
import * as catalogReleases from './20261128140000_catalog-releases.js';
import * as testClocks from './20261129050000_test-clocks.js';
import * as versionsTestEvents from './20261129030000_versions-test-events.js';
import * as requestLogs from './20261129040000_request-logs.js';
import * as imports from './20261129060000_imports.js';
import * as consoleTables from './20261129080000_console.js';

/** Every migration, by sortable name. Append only. */
export const migrations: Record<string, Migration> = {
  '20261122100000_core': core,
  '20261122110000_tasks': tasks,
  '20261122120000_hosted-pages': hostedPages,
  '20261122130000_agency-accounts': agencyAccounts,
  '20261122140000_login-reveals': loginReveals,
  '20261122150000_mail-connections-operators': mailConnectionsOperators,
  '20261123100000_sealed-secrets': sealedSecrets,
  '20261124090000_operator-audit': operatorAudit,
  '20261124100000_automations': automations,
  '20261124110000_operator-sessions': operatorSessions,
  '20261124120000_payroll-sync': payrollSync,
  '20261125090000_events-webhooks': eventsWebhooks,
  '20261125100000_idempotency-keys': idempotencyKeys,
  '20261125110000_calendar-feeds': calendarFeeds,
  '20261125130000_webhook-dispatch': webhookDispatch,
  '20261126090000_handbook': handbook,
  '20261126100000_platform-branding': platformBranding,
  '20261126120000_mail-subject-opened': mailSubjectOpened,
  '20261126130000_signup-confirmed-steps': signupConfirmedSteps,
  '20261126150000_task-revision': taskRevision,
  '20261127090000_task-due-date-basis': taskDueDateBasis,
  '20261128090000_task-list-versions': taskListVersions,
  '20261128090100_rate-limit-counters': rateLimitCounters,
  '20261128100000_incremental-roll-forward': incrementalRollForward,
  '20261128120000_tenant-keys': tenantKeys,
  '20261128130000_events-inline-payloads': eventsInlinePayloads,
  '20261128140000_catalog-releases': catalogReleases,
  '20261129050000_test-clocks': testClocks,
  '20261129030000_versions-test-events': versionsTestEvents,
  '20261129040000_request-logs': requestLogs,
  '20261129060000_imports': imports,
  '20261129080000_console': consoleTables,
};
