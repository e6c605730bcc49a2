// The events' wire shapes: the envelope GET /v2/events lists and webhooks deliver. Each type's payload is the
// resource as its own API operation answers it: that module's response schema, given by app.ts (EventPayloadSchemas).
import { Type, type TObject, type TSchema } from 'typebox';
import { BoundedString, Nullable, StringEnum } from '../../http/schemas.js';
import { EVENT_TYPES, type EventType } from './contract.js';

/** Each type: whether it lists `data.changed`, and when it fires (docs and OpenAPI). */
export const EVENT_DESCRIPTIONS: Record<EventType, { changed: boolean; when: string }> = {
  'legal_entity.signup_completed': {
    changed: false,
    when: 'The entity became active: its owner finished the hosted signup (or an operator activated it).',
  },
  'legal_entity.updated': {
    changed: true,
    when: 'Profile fields changed (hosted signup steps, a signup session that refreshes an inactive entity).',
  },
  'location.updated': {
    changed: true,
    when: 'A location was added (`changed` names `location`) or its configuration changed: API, question answers, payroll sync.',
  },
  'task.created': {
    changed: false,
    when: 'Re-planning created the task (signup, locations, answers, the daily roll-forward).',
  },
  'task.updated': {
    changed: true,
    when: 'Status, answer, dates or reasons changed; `applicable` when it no longer applies (kept because someone acted on it).',
  },
  'task.deleted': {
    changed: false,
    when: 'Re-planning removed a task nobody acted on that no longer applies; the payload is the task as it was.',
  },
  'automation.status_changed': {
    changed: true,
    when: "An automation of a task moved to another status (the owner's start or answer, a connector step, an operator's action, a manual done/dismissed); the payload is GET /tasks/{task_id}/automation's answer. When the automation moved its task, `task.updated` follows.",
  },
  'connection.status_changed': {
    changed: true,
    when: 'An account connection moved to another status (cancel, the connect page, a connector step, the give-up of a stuck one); not its creation (`pending`).',
  },
  'agency_account.created': {
    changed: false,
    when: 'An agency account was recorded for the entity (operator API, CLI, a completed automation), as GET /v2/agency_accounts lists it.',
  },
  'agency_account.updated': {
    changed: true,
    when: 'A login was added to the account (`logins`) or a connection synced its data (`data`).',
  },
  'login.created': {
    changed: false,
    when: 'A login was recorded (operator API, CLI, the connect and accounts pages, a completed automation), as GET /v2/logins lists it; never its secrets.',
  },
  'mail.received': {
    changed: false,
    when: 'A mail item was recorded for the entity (operator API, back office, CLI, a completed automation). The item as GET /v2/mail lists it, without `file_url`: list /v2/mail for a fresh signed link.',
  },
  'payroll.connected': { changed: false, when: 'The owner connected payroll on the hosted consent page.' },
  'payroll.disconnected': {
    changed: false,
    when: 'The platform disconnected payroll (DELETE /v2/auth/payroll).',
  },
  'handbook.published': {
    changed: false,
    when: 'The owner published a new version of the employee handbook on the hosted builder (docs/handbook.md); the handbook tasks it covers are done in the same change.',
  },
  'handbook.acknowledged': {
    changed: false,
    when: 'An employee acknowledged the latest handbook version through their link.',
  },
  'catalog.released': {
    changed: false,
    when: 'The installation first ran a new release of the compliance catalog (docs/catalog-releases.md); recorded once, for every platform, with `legal_entity_id` null. Its changes: GET /v2/catalog/releases/{id}. The tasks it re-plans follow as task.* events with `cause: "catalog"`.',
  },
};

/** task.* events re-planned by a catalog release (no change of the entity's facts) say so. */
const CAUSED = new Set<EventType>(['task.created', 'task.updated', 'task.deleted']);
const CauseSchema = Type.Optional(
  Type.Literal('catalog', {
    description:
      'Present when a catalog release re-planned the task (the roll-forward after a release, no change of the entity’s facts): docs/events.md.',
  }),
);

const ChangedSchema = Type.Array(Type.String(), { description: "The fields of `object` that changed (the API's names)." });

const envelope = <T extends TSchema, D extends TObject>(title: string, type: T, data: D) =>
  Type.Object(
    {
      id: Type.String({ description: 'The event id (`evt_…`); the `webhook-id` of its deliveries.' }),
      type,
      created_at: Type.String({ format: 'date-time', description: 'When the change was recorded (its transaction).' }),
      legal_entity_id: Nullable(Type.String()),
      data,
    },
    { title },
  );

/** The envelope of one type; `payload` is the schema (or a $ref to it) of its `data.object`. */
export const typedEventSchema = (type: EventType, payload: TSchema) =>
  envelope(
    `Event_${type}`,
    Type.Literal(type),
    Type.Object({
      object: payload,
      ...(EVENT_DESCRIPTIONS[type].changed && { changed: ChangedSchema }),
      ...(CAUSED.has(type) && { cause: CauseSchema }),
    }),
  );

/** GET /v2/events items: any type (the `webhooks` section of the OpenAPI document gives each type's payload). */
export const PlatformEventSchema = envelope(
  'PlatformEvent',
  StringEnum(EVENT_TYPES),
  Type.Object({
    object: Type.Object({}, { additionalProperties: true, description: 'The resource as its API operation answers it.' }),
    changed: Type.Optional(ChangedSchema),
    cause: CauseSchema,
  }),
);

export const ListEventsQuerySchema = Type.Object({
  type: Type.Optional(
    Type.Array(StringEnum(EVENT_TYPES), {
      maxItems: EVENT_TYPES.length,
      description: 'Only these types (repeat the parameter for several).',
    }),
  ),
  legal_entity_id: Type.Optional(BoundedString(64)),
  starting_after: Type.Optional(BoundedString(64)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 100 })),
});
