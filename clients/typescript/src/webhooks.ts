// Webhook signature verification: Statehouse signs every delivery with the Standard Webhooks scheme
// (webhook-id, webhook-timestamp, webhook-signature; HMAC-SHA256 with the endpoint's `whsec_…` secret), see
// docs/webhooks.md. Verify the raw body as received, before parsing it.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './generated/schema.js';

type Payload<K extends keyof webhooks> = NonNullable<webhooks[K]['post']>['requestBody'] extends {
  content: { 'application/json': infer B };
}
  ? B
  : never;

/** A delivered event: `{id, type, created_at, legal_entity_id, data}`, typed by `type`. */
export type WebhookEvent = { [K in keyof webhooks]: Payload<K> }[keyof webhooks];

/** The signature, the timestamp or the headers do not verify: answer 400 and drop the request. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: HeaderBag): Record<string, string> {
  const entries: [string, string][] =
    headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers).flatMap(([name, value]) =>
          value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value] as [string, string]],
        );
  return Object.fromEntries(entries);
}

/**
 * Verifies a delivery and returns its event. `body` is the raw request body (string or bytes), `headers` the
 * request's headers (a fetch Headers or Node's `request.headers`). Throws WebhookSignatureError when the signature
 * is not the endpoint's, or the timestamp is more than 5 minutes away from now.
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: HeaderBag): WebhookEvent {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  try {
    return new Webhook(secret).verify(text, headerRecord(headers)) as WebhookEvent;
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new WebhookSignatureError(error.message);
    throw new WebhookSignatureError((error as Error).message);
  }
}
