import { Type } from 'typebox';
import { BoundedString, Nullable, StringEnum } from '../../http/schemas.js';
import { DELIVERY_STATUSES } from './webhook-deliveries.types.js';

export const MAX_DELIVERIES_PAGE = 250;

const Id = (description: string) => BoundedString(100, { description });

export const EndpointParamsSchema = Type.Object({ endpoint_id: Id('The webhook endpoint (`we_…`).') });
export const DeliveryParamsSchema = Type.Object({
  endpoint_id: Id('The webhook endpoint (`we_…`).'),
  delivery_id: Id('The delivery (`whd_…`).'),
});

export const ListDeliveriesQuerySchema = Type.Object({
  status: Type.Optional(StringEnum(DELIVERY_STATUSES, { description: 'Only deliveries in this state.' })),
  starting_after: Type.Optional(Id('The last delivery of the previous page (X-Next-Page gives the whole next URL).')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DELIVERIES_PAGE, default: 50, description: 'Deliveries per page.' })),
});

const Timestamp = Type.String({ format: 'date-time' });

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String(),
    endpoint_id: Type.String(),
    event_id: Type.String({ description: 'The event delivered; also the `webhook-id` header of every attempt.' }),
    event_type: Type.String(),
    status: StringEnum(DELIVERY_STATUSES, {
      description:
        '`pending` while attempts remain, `succeeded` after a 2xx, `failed` when attempts ran out or the endpoint was disabled or deleted.',
    }),
    attempt_count: Type.Integer({ description: 'Attempts made, automatic and manual.' }),
    next_attempt_at: Nullable(Timestamp),
    last_attempt_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { title: 'WebhookDelivery' },
);

export const WebhookAttemptSchema = Type.Object(
  {
    attempted_at: Timestamp,
    trigger: StringEnum(['automatic', 'manual'] as const),
    status_code: Nullable(
      Type.Integer({ description: "The receiver's HTTP status; null when no answer came (refused, timed out, connection lost)." }),
    ),
    error: Nullable(Type.String({ description: 'Why the attempt failed; null when it succeeded.' })),
    latency_ms: Type.Integer(),
    response_excerpt: Nullable(Type.String({ description: "The first 2 KiB of the receiver's answer." })),
  },
  { title: 'WebhookAttempt' },
);

export const WebhookDeliveryWithAttemptsSchema = Type.Object(
  {
    ...WebhookDeliverySchema.properties,
    attempts: Type.Array(WebhookAttemptSchema, { description: 'Every attempt, oldest first.' }),
  },
  { title: 'WebhookDeliveryWithAttempts' },
);
