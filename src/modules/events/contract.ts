/**
 * The events module's contract: what every module that changes something a platform cares about records, in the
 * transaction of the change (a transactional outbox; see docs/events.md), and the one way other modules read the
 * log (`EventFeed`: webhook deliveries). Nothing here reaches another module: event payload schemas are given to
 * the events module by app.ts (`EventPayloadSchemas`).
 */
import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import type { TObject } from 'typebox';

/** Every event type Statehouse records, `<resource>.<what happened>`. */
export const EVENT_TYPES = [
  'legal_entity.signup_completed',
  'legal_entity.updated',
  'location.updated',
  'task.created',
  'task.updated',
  'task.deleted',
  'automation.status_changed',
  'connection.status_changed',
  'agency_account.created',
  'agency_account.updated',
  'login.created',
  'mail.received',
  'payroll.connected',
  'payroll.disconnected',
  'handbook.published',
  'handbook.acknowledged',
  'catalog.released',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/**
 * An event's `data`: the resource as the API answers it (its /v2 shape where the resource has one), and for
 * `*.updated`/`*.status_changed` events the names of the fields that changed.
 */
export interface EventData {
  object: Record<string, unknown>;
  changed?: string[];
  /** task.* only: `catalog` when a catalog release re-planned the task (no change of the entity's facts). */
  cause?: TaskChangeCause;
}

/** Why re-planning changed a task, when it is not a change the platform or the owner made: a catalog release. */
export type TaskChangeCause = 'catalog';

/** One event to record. The platform is the owner of the legal entity (or of the resource). */
export interface NewEvent {
  type: EventType;
  platformId: string;
  /** null only for a platform-level resource with no entity. */
  legalEntityId: string | null;
  data: EventData;
}

/** The event as the API and webhook deliveries show it. */
export interface PlatformEvent {
  id: string;
  type: EventType;
  created_at: string;
  legal_entity_id: string | null;
  data: EventData;
}

/** What modules are given: record events inside the caller's transaction (never after it, never outside it). */
export interface EventRecorder {
  record(trx: Db, events: NewEvent | readonly NewEvent[]): Promise<void>;
}

/** One change of a task, as planning and the task operations report it to `TaskEvents`. */
export interface TaskChange {
  taskId: string;
  kind: 'created' | 'updated' | 'deleted';
  /** For `updated`: the fields that changed (the v2 task's names, e.g. 'due_date', 'status', 'answer'). */
  changed?: string[];
  /**
   * For `created`: the row as the insert returned it, with its entity's platform. The event is then built from it
   * without reading the task back (a task just inserted has no automation yet): a first planning writes ~42 per entity.
   */
  inserted?: TaskRow & { platform_id: string };
  /** The event's `data.cause` (set by planning when a catalog release re-planned the task). */
  cause?: TaskChangeCause;
}

/**
 * task.created/updated/deleted with the v2 platform task as payload. Implemented by the tasks module (which owns
 * that shape) and given to planning and the task-changing modules through app.ts, so planning needs no import of
 * tasks (tasks → planning, never the reverse).
 */
export interface TaskEvents {
  /** The events of these changes, the tasks read now in one query: call it before deleting a task. */
  describe(trx: Db, changes: readonly TaskChange[]): Promise<NewEvent[]>;
  /** Describes these changes and records them with events described earlier in the transaction: one insert. */
  record(trx: Db, changes: readonly TaskChange[], described?: readonly NewEvent[]): Promise<void>;
}

/** Each event type's payload schema (`data.object`): the resource's own response schema, from its module (app.ts). */
export type EventPayloadSchemas = Record<EventType, TObject>;

/** Where an event sits in the log: its transaction (xid8, as text), then its sequence within the log. */
export interface EventPosition {
  xid: string;
  seq: number;
}

/** An event as the fan-out reads the log: who it is for, what it is, where it sits. */
export interface LoggedEvent extends EventPosition {
  id: string;
  platform_id: string;
  type: string;
}

/**
 * The log as other modules read it, in log order (xid, seq), over the caller's database or transaction. Webhook
 * deliveries keep their own cursor (a position) and read past it.
 */
export interface EventFeed {
  /**
   * Every transaction with an id below this had ended when the snapshot was taken: their events are all visible
   * now and no event with a smaller (xid, seq) can still appear. Read it before the transaction takes an id of its
   * own (a row lock), which would hold the bound back.
   */
  snapshotXmin(db: Db): Promise<string>;
  /** The next events past `after` whose transactions are older than `xmin`, in (xid, seq) order. */
  after(db: Db, after: EventPosition, xmin: string, limit: number): Promise<LoggedEvent[]>;
  /** Whether any event lies past this position (visible or not yet): a cheap index probe. */
  anyAfter(db: Db, after: EventPosition): Promise<boolean>;
  /** The platform's event as the API shows it; undefined once the retention deleted it. */
  get(db: Db, platformId: string, eventId: string): Promise<PlatformEvent | undefined>;
  /** The types of these events of the platform, by id. */
  typesOf(db: Db, platformId: string, eventIds: readonly string[]): Promise<Map<string, EventType>>;
}

/** A page of the platform's log, as GET /v2/events and the console read it (implemented by event-log.ts). */
export interface EventLogReader {
  list(
    platformId: string,
    query: { types?: readonly EventType[]; legalEntityId?: string; startingAfter?: string; limit: number },
  ): Promise<{ events: PlatformEvent[]; hasMore: boolean }>;
}
