// Agency accounts and logins as the services and the API show them: the views (rows with their catalog agency
// and region) and their /v2 wire shapes, shared by the routes and the accounts' events.
import type { Agency } from '../../catalog/catalog.schema.js';
import type { Catalog } from '../../catalog/catalog.js';
import { regionByCode } from '../../catalog/regions.js';
import type { AgencyAccountRow } from '../../db/schema.js';
import type { LoginListRow } from './accounts.repository.js';
import type { AgencyAccountView, LoginView } from './contract.js';

/** The path of the hosted reveal-session operation of a login. */
export const loginRevealPath = (loginId: string) => `/logins/${encodeURIComponent(loginId)}/sessions`;

export function createAccountViews(catalog: Pick<Catalog, 'regions'>) {
  const agencyOf = (row: AgencyAccountRow): Agency | undefined => catalog.regions.get(row.region_code)?.agencies.get(row.agency_id);

  const toLoginView = (row: LoginListRow): LoginView => ({
    id: row.id,
    name: row.name,
    region: regionByCode(row.region_code)!,
    agencyAccountId: row.agency_account_id,
    loginUrl: row.login_url,
    isSupported: row.is_supported,
    revealPath: loginRevealPath(row.id),
    updatedAt: row.updated_at,
  });

  const toAccountView = (row: AgencyAccountRow, logins: LoginListRow[]): AgencyAccountView => {
    const agency = agencyOf(row);
    return {
      id: row.id,
      name: row.name,
      region: regionByCode(row.region_code)!,
      // An agency removed from the catalog since keeps its id; name and website fall back to it.
      agency: { id: row.agency_id, name: agency?.name ?? row.agency_id, website: agency?.website ?? '' },
      data: row.data,
      logins: logins.filter((l) => l.agency_account_id === row.id).map(toLoginView),
    };
  };

  return { agencyOf, toLoginView, toAccountView };
}

export type AccountViews = ReturnType<typeof createAccountViews>;

// The wire shapes are built from these views only: the secret columns have no field to land in.
export const toLoginV2 = (l: LoginView) => ({
  id: l.id,
  name: l.name,
  region: l.region.code,
  region_code: l.region.code,
  login_url: l.loginUrl,
  url: l.revealPath,
  is_supported: l.isSupported,
});
export const toAccountV2 = (a: AgencyAccountView) => ({
  region: a.region.code,
  id: a.id,
  name: a.name,
  agency: a.agency,
  data: a.data,
  logins: a.logins.map(toLoginV2),
});
