import { Webhook } from 'standardwebhooks';
import type { EventType, PlatformEvent } from '../events/index.js';
import { USER_AGENT } from './webhook-request.js';

/** The event as GET /v2/events answers it: the body every delivery of it carries. */
export function platformEventOf(row: {
  event_id: string;
  event_type: string;
  event_created_at: Date;
  legal_entity_id: string | null;
  data: Record<string, unknown>;
}): PlatformEvent {
  return {
    id: row.event_id,
    type: row.event_type as EventType,
    created_at: row.event_created_at.toISOString(),
    legal_entity_id: row.legal_entity_id,
    data: row.data as unknown as PlatformEvent['data'],
  };
}

/**
 * Standard Webhooks headers: `webhook-id` is the event's id (the same on every attempt, so a receiver de-duplicates
 * on it), one `v1,` signature per secret (the current one and, during a rotation, the previous one), space-separated.
 */
export function signedHeaders(eventId: string, body: string, secrets: readonly string[], at: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' '),
  };
}
