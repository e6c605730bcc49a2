/**
 * The webhooks module's contract: what the other half of the capability, webhook deliveries (fan-out from the
 * event log, signed attempts, retries), reads and reports about endpoints, and the URL guard it connects through.
 * The endpoints' tables are read and written by this module only.
 */
import type { LookupAddress } from 'node:dns';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookEndpointsTable } from '../../db/schema/events-webhooks.js';

/** An enabled endpoint an event is to be delivered to. */
export interface DeliveryTarget {
  id: string;
  platformId: string;
  url: string;
}

/** What the delivery side reads and reports about endpoints. */
export interface EndpointsForDelivery {
  /** The platform's endpoint (not deleted) and whether it is enabled; undefined for any other (the deliveries API). */
  find(db: Db, platformId: string, endpointId: string): Promise<{ id: string; status: 'enabled' | 'disabled' } | undefined>;
  /** The platform's enabled, not deleted endpoints subscribed to this event type (in the caller's transaction). */
  subscribedTo(trx: Db, platformId: string, type: string): Promise<DeliveryTarget[]>;
  /** The endpoint, if it still exists and is enabled (a delivery to a deleted or disabled one is not attempted). */
  target(db: Db, endpointId: string): Promise<DeliveryTarget | null>;
  /** Secrets to sign with now (`whsec_…`): the current one first, then rotated-out ones not yet expired. */
  signingSecrets(db: Db, endpointId: string): Promise<string[]>;
  /** Counts an attempt's outcome; after sustained failure the endpoint is disabled with the reason recorded. */
  recordOutcome(trx: Db, endpointId: string, outcome: { ok: boolean; at: Date; error?: string }): Promise<void>;
}

/** The type of the event `sendTest` delivers (docs/webhooks.md, "Send a test event"). */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook_endpoint.test';
/** A test event's id prefix: the log's own (`evt_…`), so a receiver stores and de-duplicates it like any event id. */
export const WEBHOOK_TEST_EVENT_ID_PREFIX = 'evt';

/** The delivery `sendTest` records: pending, its first attempt queued. */
export interface TestDelivery {
  id: string;
  endpoint_id: string;
  /** The test event's id: the `webhook-id` header and the body's `id`. */
  event_id: string;
  event_type: string;
  created_at: Date;
}

/**
 * "Send a test event" (POST /v2/webhook_endpoints/{id}/test, the console): one `webhook_endpoint.test` event, signed
 * like every delivery, to one enabled endpoint of the platform, through the normal delivery path (attempts, retries,
 * the endpoint's deliveries). It is not recorded in the platform's event log. Implemented by the webhook deliveries
 * module (`deliveries.sendTest`); 404 for another platform's or a deleted endpoint, 409 for a disabled one.
 */
export interface WebhookTestEvents {
  sendTest(platformId: string, endpointId: string): Promise<TestDelivery>;
}

/**
 * Where a delivery may connect: refuses loopback, private, link-local, unique-local, multicast and unspecified
 * addresses after DNS resolution unless private destinations are allowed (STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE=1).
 * Used when an endpoint is created or changed (422) and as the `lookup` of every delivery's socket, so a name
 * that later resolves to a forbidden address (DNS rebinding) is refused at connect time.
 */
export interface DestinationGuard {
  /** Throws InvalidInputError-ready reasons as an Error whose message says why; resolves when the URL may be used. */
  check(url: string): Promise<void>;
  /** A `lookup` for http(s).request: resolves like dns.lookup, failing for a forbidden address. */
  lookup(
    hostname: string,
    options: object,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void;
}

/** An endpoint as stored (the signing secrets are elsewhere, sealed). */
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** What the platform console does with a platform's endpoints (implemented by webhook-endpoints.service.ts). */
export interface WebhookEndpointsAdmin {
  list(platformId: string): Promise<WebhookEndpointRow[]>;
  /** The endpoint and its first signing secret (the only time it is shown). */
  create(
    platformId: string,
    input: { url: string; event_types?: string[] | null; description?: string | null },
  ): Promise<{ endpoint: WebhookEndpointRow; secret: string }>;
  update(
    owner: { platformId: string },
    id: string,
    patch: { status?: 'enabled' | 'disabled' },
    options: { disabledReason: string; inTransaction?: (trx: Db, before: WebhookEndpointRow, after: WebhookEndpointRow) => Promise<void> },
  ): Promise<WebhookEndpointRow>;
  remove(owner: { platformId: string }, id: string, inTransaction?: (trx: Db, row: WebhookEndpointRow) => Promise<void>): Promise<void>;
}
