import { Type } from 'typebox';
import { BoundedString, DateString, Nullable, StringEnum } from '../../http/schemas.js';
import type { ConnectionStatus } from '../../db/schema.js';

export const CONNECTION_STATUSES = [
  'pending',
  'authenticating',
  'registering',
  'connected',
  'disconnected',
  'canceled',
] as const satisfies readonly ConnectionStatus[];

export const ConnectionStatusSchema = StringEnum(CONNECTION_STATUSES, {
  title: 'PlatformConnectionStatus',
  description:
    'pending → authenticating → registering → connected; disconnected when the agency refuses (enter credentials again); canceled is final.',
});

export const ConnectRequestSchema = Type.Object(
  {
    legal_entity_id: BoundedString(64, { description: 'The legal entity of the access token.' }),
    agency_account_id: BoundedString(64, { description: 'An agency account of that legal entity (`GET /agency_accounts`).' }),
  },
  { title: 'PlatformConnectRequest' },
);

const HistoryItemSchema = Type.Object(
  {
    period_start_date: DateString(),
    period_end_date: DateString(),
    payment_date: DateString(),
    filing_date: DateString(),
    payment_amount: Type.Integer({ description: 'Cents.' }),
    amount_due: Type.Integer({ description: 'Cents.' }),
    amount_applied: Type.Integer({ description: 'Cents.' }),
    raw_data: Type.Object({}, { additionalProperties: true }),
  },
  { title: 'PlatformAccountHistoryItem' },
);

const AccountLoginSchema = Type.Object(
  { login_url: Type.String(), user_name: Type.String(), two_factor_enabled: Type.Boolean() },
  { title: 'PlatformAccountLogin' },
);

const ConnectionAgencyAccountSchema = Type.Object(
  {
    id: Type.String(),
    agency_id: Type.String({ description: 'Catalog agency id, e.g. `ca-edd`.' }),
    region: Type.String({ description: 'Two-letter state code.' }),
    name: Type.String(),
  },
  { title: 'PlatformConnectionAgencyAccount' },
);

export const PlatformAccountSchema = Type.Object(
  {
    id: Type.String({ description: 'The agency account id.' }),
    agency_account: ConnectionAgencyAccountSchema,
    status: StringEnum(['active', 'exception', 'closed'] as const, { title: 'PlatformAccountStatus' }),
    id_number: Type.String({ description: 'The account number at the agency.' }),
    has_tpa: Type.Boolean({ description: 'Whether a third-party administrator is registered on the account.' }),
    tax_rate_percent: Nullable(Type.Number()),
    reporting_schedule: Nullable(Type.String()),
    balance: Nullable(Type.Integer({ description: 'Cents owed.' })),
    history: Nullable(Type.Array(HistoryItemSchema)),
    notices: Nullable(
      Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'Always empty for now (notices arrive with mail).' }),
    ),
    account_login: Nullable(AccountLoginSchema),
    synced_at: Type.String({ format: 'date-time', description: 'When the connector last read the account.' }),
  },
  { title: 'PlatformAccount' },
);

export const ConnectionSchema = Type.Object(
  {
    id: Type.String(),
    status: ConnectionStatusSchema,
    account: Nullable(PlatformAccountSchema),
    agency_account_id: Type.String(),
    status_reason: Nullable(
      Type.String({ description: 'Why the connection is in its status (e.g. why the agency refused); never a secret.' }),
    ),
    status_changed_at: Type.String({ format: 'date-time' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'PlatformConnection' },
);

export const ConnectSessionSchema = Type.Object(
  {
    connect_url: Type.String({ description: 'Single-use link to the hosted connect page, valid HOSTED_SESSION_TTL_SECONDS.' }),
    connection: ConnectionSchema,
    connection_id: Type.String({
      description:
        "The same as `connection.id`: the interface's prose names the connect result's id `connection_id`, its schema nests the connection; both are given.",
    }),
  },
  { title: 'PlatformConnectSession' },
);

export const ConnectionParamsSchema = Type.Object({ connection_id: BoundedString(64) });
