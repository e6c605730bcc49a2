import { Type, type Static } from 'typebox';
import { BoundedString, HttpUrlString, Nullable, StringEnum } from '../../http/schemas.js';
import { EVENT_TYPES } from '../events/contract.js';
import { MAX_DESCRIPTION_LENGTH, MAX_EVENT_TYPES } from './endpoint.input.js';
import { DEFAULT_ROTATION_OVERLAP_SECONDS, MAX_ROTATION_OVERLAP_SECONDS } from './webhook-endpoints.service.js';
import type { EndpointRow } from './webhooks.repository.js';

const DateTime = (description: string) => Nullable(Type.String({ format: 'date-time', description }));
const EventTypes = Type.Array(StringEnum(EVENT_TYPES, { title: 'EventType' }), { maxItems: MAX_EVENT_TYPES });
const Status = StringEnum(['enabled', 'disabled'] as const, { title: 'WebhookEndpointStatus' });

const endpointFields = {
  id: Type.String({ description: 'we_…' }),
  url: Type.String(),
  description: Nullable(Type.String()),
  event_types: Nullable(EventTypes),
  status: Status,
  disabled_reason: Nullable(Type.String({ description: 'Why it was disabled: by whom, or the failures that disabled it.' })),
  disabled_at: DateTime('When it was disabled.'),
  failing_since: DateTime('The first failed attempt since the last success; null while deliveries succeed.'),
  last_success_at: DateTime('The last successful delivery attempt.'),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const WebhookEndpointSchema = Type.Object(endpointFields, {
  title: 'WebhookEndpoint',
  description: 'event_types null: every event type.',
});

const secretField = {
  secret: Type.String({
    description: 'The signing secret (`whsec_` + base64), shown only in this response. Verify deliveries with it (Standard Webhooks).',
  }),
};
export const WebhookEndpointWithSecretSchema = Type.Object({ ...endpointFields, ...secretField }, { title: 'WebhookEndpointWithSecret' });

export const RotatedSecretSchema = Type.Object(
  {
    ...endpointFields,
    ...secretField,
    previous_secret_expires_at: Type.String({
      format: 'date-time',
      description: 'Until then deliveries carry a signature by each secret.',
    }),
  },
  { title: 'WebhookEndpointRotatedSecret' },
);

export const OperatorWebhookEndpointSchema = Type.Object(
  {
    ...endpointFields,
    platform_id: Type.String(),
    consecutive_failures: Type.Integer({ description: 'Failed attempts since the last success.' }),
  },
  { title: 'OperatorWebhookEndpoint' },
);

export const CreateEndpointBodySchema = Type.Object(
  {
    url: HttpUrlString({
      description: 'Where events are POSTed: a public http(s) address (https in production), no credentials, no fragment.',
    }),
    event_types: Type.Optional(Nullable(EventTypes)),
    description: Type.Optional(Nullable(BoundedString(MAX_DESCRIPTION_LENGTH))),
  },
  { title: 'WebhookEndpointCreate' },
);

export const UpdateEndpointBodySchema = Type.Object(
  {
    url: Type.Optional(HttpUrlString()),
    event_types: Type.Optional(Nullable(EventTypes)),
    description: Type.Optional(Nullable(BoundedString(MAX_DESCRIPTION_LENGTH))),
    status: Type.Optional(Status),
  },
  { title: 'WebhookEndpointUpdate' },
);

export const RotateSecretBodySchema = Type.Object(
  {
    expire_previous_after_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_ROTATION_OVERLAP_SECONDS,
        default: DEFAULT_ROTATION_OVERLAP_SECONDS,
        description: 'How long the previous secret keeps signing (a second signature); 0 ends it now.',
      }),
    ),
  },
  { title: 'WebhookSecretRotate' },
);

export const OperatorUpdateBodySchema = Type.Object(
  {
    status: Status,
    reason: Type.Optional(
      BoundedString(MAX_DESCRIPTION_LENGTH, { description: 'Recorded as the disabled reason and in the audit trail.' }),
    ),
  },
  { title: 'OperatorWebhookEndpointUpdate' },
);

export const EndpointParamsSchema = Type.Object({ id: BoundedString(64) });
export const OperatorListQuerySchema = Type.Object({ platform_id: Type.Optional(BoundedString(64)) });

export type WebhookEndpointView = Static<typeof WebhookEndpointSchema>;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const toEndpointView = (row: EndpointRow): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  event_types: row.event_types as WebhookEndpointView['event_types'],
  status: row.status,
  disabled_reason: row.disabled_reason,
  disabled_at: iso(row.disabled_at),
  failing_since: iso(row.failing_since),
  last_success_at: iso(row.last_success_at),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toOperatorEndpointView = (row: EndpointRow) => ({
  ...toEndpointView(row),
  platform_id: row.platform_id,
  consecutive_failures: row.consecutive_failures,
});
