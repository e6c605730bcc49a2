// The OpenAPI 3.1 `webhooks` section: one entry per event type, the request a receiver gets (docs/events.md).
import type { TSchema } from 'typebox';
import { EVENT_TYPES, type EventPayloadSchemas } from './contract.js';
import { EVENT_DESCRIPTIONS, typedEventSchema } from './events.schemas.js';

const header = (name: string, description: string) => ({ name, in: 'header', required: true, schema: { type: 'string' }, description });

const SIGNATURE_HEADERS = [
  header('webhook-id', 'The event id: the same for every attempt of one delivery, so a receiver can drop repeats.'),
  header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed; refuse stale ones (replay protection).'),
  header(
    'webhook-signature',
    'Standard Webhooks signatures, `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, space separated: one per active secret of the endpoint.',
  ),
];

/** `webhooks` and the payload schemas they reference (`#/components/schemas/<title>`, shared by the types of one resource). */
export function eventWebhooksDocument(payloads: EventPayloadSchemas): {
  webhooks: Record<string, unknown>;
  schemas: Record<string, TSchema>;
} {
  const schemas: Record<string, TSchema> = {};
  const webhooks: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    const object = payloads[type];
    const { when } = EVENT_DESCRIPTIONS[type];
    const name = String((object as { title?: string }).title);
    schemas[name] = object;
    webhooks[type] = {
      post: {
        operationId: `event.${type}`,
        summary: type,
        description: `${when} Delivered at least once to every enabled endpoint subscribed to \`${type}\`; any 2xx answer acknowledges it.`,
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: typedEventSchema(type, { $ref: `#/components/schemas/${name}` } as unknown as TSchema) },
          },
        },
        responses: { '2XX': { description: 'Received. Anything else (or no answer within the time limit) is retried with backoff.' } },
      },
    };
  }
  return { webhooks, schemas };
}
