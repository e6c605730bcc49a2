// Each event type's payload schema: the resource as its own API operation answers it (that module's response
// schema). Composed here, beside app.ts, so the events module (at the bottom: every module records into it)
// imports none of the modules above it.
import { AccountLoginV2Schema, AgencyAccountV2Schema } from './modules/accounts/accounts.schemas.js';
import { AutomationStateSchema } from './modules/automations/automations.schemas.js';
import { CatalogReleaseSummarySchema } from './modules/catalog-releases/catalog-releases.schemas.js';
import { ConnectionSchema } from './modules/connections/connections.schemas.js';
import type { EventPayloadSchemas } from './modules/events/contract.js';
import { HandbookAcknowledgedEventSchema, HandbookPublishedEventSchema } from './modules/handbook/contract.js';
import { PlatformLegalEntitySchema } from './modules/legal-entities/legal-entities.schemas.js';
import { LocationSchema } from './modules/locations/locations.schemas.js';
import { MailEventSchema } from './modules/mail/mail.schemas.js';
import { PayrollConnectionSchema } from './modules/payroll/payroll.schemas.js';
import { PlatformTaskSchema } from './modules/tasks/tasks.schemas.js';

export const EVENT_PAYLOAD_SCHEMAS: EventPayloadSchemas = {
  'legal_entity.signup_completed': PlatformLegalEntitySchema,
  'legal_entity.updated': PlatformLegalEntitySchema,
  'location.updated': LocationSchema,
  'task.created': PlatformTaskSchema,
  'task.updated': PlatformTaskSchema,
  'task.deleted': PlatformTaskSchema,
  'automation.status_changed': AutomationStateSchema,
  'connection.status_changed': ConnectionSchema,
  'agency_account.created': AgencyAccountV2Schema,
  'agency_account.updated': AgencyAccountV2Schema,
  'login.created': AccountLoginV2Schema,
  'mail.received': MailEventSchema,
  'payroll.connected': PayrollConnectionSchema,
  'payroll.disconnected': PayrollConnectionSchema,
  'handbook.published': HandbookPublishedEventSchema,
  'handbook.acknowledged': HandbookAcknowledgedEventSchema,
  'catalog.released': CatalogReleaseSummarySchema,
};
