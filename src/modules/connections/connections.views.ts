// The API's view of a connection (GET /accounts/connections/{id}), shared by the service and the connection's
// events, read through the repository it is given (the caller's transaction for an event).
import type { ConnectionRow } from '../../db/schema.js';
import type { AccountsConnectionPort } from '../accounts/contract.js';
import type { ConnectionsRepository } from './connections.repository.js';
import type { ConnectionView } from './contract.js';

/** `edd-admin-5521` → `e***1`: first and last character (only the first for short names). */
export function maskUserName(userName: string): string {
  const chars = [...userName];
  return chars.length >= 6 ? `${chars[0]}***${chars.at(-1)}` : `${chars[0] ?? ''}***`;
}

export function createConnectionViews(deps: { accounts: Pick<AccountsConnectionPort, 'openLoginSecrets'> }) {
  async function accountLogin(repo: ConnectionsRepository, row: ConnectionRow) {
    if (!row.login_id) return null;
    const login = await repo.findLoginUrl(row.legal_entity_id, row.login_id);
    if (!login) return null;
    try {
      // The reference's shape has a user name, but credentials never leave the vault through the API:
      // enough of it to recognise the login, not to use it.
      const secrets = await deps.accounts.openLoginSecrets(row.legal_entity_id, login.id);
      return { login_url: login.login_url, user_name: maskUserName(secrets.username), two_factor_enabled: Boolean(secrets.totp_seed) };
    } catch {
      return null; // a secret whose vault key is gone: the connection is still readable
    }
  }

  async function view(repo: ConnectionsRepository, row: ConnectionRow): Promise<ConnectionView> {
    const account = await repo.findAccount(row.legal_entity_id, row.agency_account_id);
    const details = account.details;
    return {
      id: row.id,
      status: row.status,
      account: details
        ? {
            id: account.id,
            agency_account: { id: account.id, agency_id: account.agency_id, region: account.region_code, name: account.name },
            status: details.status,
            id_number: details.id_number,
            has_tpa: details.has_tpa,
            tax_rate_percent: details.tax_rate_percent,
            reporting_schedule: details.reporting_schedule,
            balance: details.balance,
            history: details.history,
            // Agency notices arrive with mail (a later capability).
            notices: [],
            account_login: await accountLogin(repo, row),
            synced_at: details.synced_at,
          }
        : null,
      agency_account_id: row.agency_account_id,
      status_reason: row.status_reason,
      status_changed_at: row.status_changed_at.toISOString(),
      created_at: row.created_at.toISOString(),
    };
  }

  return { view };
}

export type ConnectionViews = ReturnType<typeof createConnectionViews>;
