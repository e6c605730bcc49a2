// What other modules use of account connections: the service, its views, the statuses, the wire schema
// events compose. A connection reads its account through the accounts module, which writes it.
import type { LoginSecrets } from '../../crypto/vault.js';
import type { AgencyAccountDetails, AgencyAccountRow, ConnectionRow, ConnectionStatus } from '../../db/schema.js';
import type { AccessScope } from '../../http/principals.js';

export { CONNECTION_STATUSES, ConnectionSchema } from './connections.schemas.js';

/** The API's PlatformAccount: what the connection learned about the agency account. */
export interface PlatformAccountView extends AgencyAccountDetails {
  id: string;
  agency_account: { id: string; agency_id: string; region: string; name: string };
  notices: never[];
  account_login: { login_url: string; user_name: string; two_factor_enabled: boolean } | null;
}

export interface ConnectionView {
  id: string;
  status: ConnectionRow['status'];
  account: PlatformAccountView | null;
  agency_account_id: string;
  status_reason: string | null;
  status_changed_at: string;
  created_at: string;
}

/** What the hosted connect page shows. */
export interface ConnectPageData {
  connection: ConnectionRow;
  account: AgencyAccountRow;
  agencyName: string;
  regionName: string;
}

/** The operator's view of one connection with its whole transition log. */
export interface ConnectionWithEvents {
  id: string;
  platform_id: string;
  agency_account_id: string;
  status: ConnectionStatus;
  status_reason: string | null;
  created_at: string;
  status_changed_at: string;
  events: { from_status: ConnectionStatus | null; to_status: ConnectionStatus; reason: string | null; occurred_at: string }[];
}

/** Account connections: connect an agency account through its agency's connector, follow and cancel it. */
export interface ConnectionsService {
  /** POST /accounts/connect: the live connection of the account with a fresh link, else a new pending one. */
  connect(
    scope: AccessScope,
    input: { legal_entity_id: string; agency_account_id: string },
  ): Promise<{ connect_url: string; connection: ConnectionView; connection_id: string }>;
  /** GET /accounts/connections/{connection_id}. */
  get(scope: AccessScope, id: string): Promise<ConnectionView>;
  /** Operator view: every connection of an entity, newest first, each with its full transition log. */
  listWithEvents(legalEntityId: string): Promise<ConnectionWithEvents[]>;
  /** POST /accounts/connections/{connection_id}/cancel: a live connection → canceled; any other is a 409. */
  cancel(scope: AccessScope, id: string): Promise<ConnectionView>;
  /** The hosted page's view of a connection of this entity, or null. */
  pageData(legalEntityId: string, id: string): Promise<ConnectPageData | null>;
  /** The connect page's form: credentials into the vault, then `authenticating`; false when it no longer accepts them. */
  submitCredentials(legalEntityId: string, id: string, secrets: LoginSecrets): Promise<boolean>;
}
