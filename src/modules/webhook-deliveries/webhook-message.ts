import { Webhook } from 'standardwebhooks';
import { USER_AGENT } from './webhook-request.js';

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
