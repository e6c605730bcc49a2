import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import type { AgencyAccountView, LoginView } from '../accounts/contract.js';

// The wire views of agency accounts and logins, shared by the operator API's account and login routes.

export const OperatorLogin = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    region: Type.String(),
    agency_account_id: Nullable(Type.String()),
    login_url: Type.String(),
    is_supported: Type.Boolean(),
  },
  { title: 'OperatorLogin' },
);

export const OperatorAgencyAccount = Type.Object(
  {
    id: Type.String(),
    legal_entity_id: Type.String(),
    region: Type.String(),
    name: Type.String(),
    agency: Type.Object({ id: Type.String(), name: Type.String(), website: Type.String() }),
    data: Type.Array(
      Type.Object({ name: Type.String(), description: Nullable(Type.String()), value: Nullable(Type.String()), status: Type.String() }),
    ),
    logins: Type.Array(OperatorLogin),
  },
  { title: 'OperatorAgencyAccount' },
);

export const toLogin = (l: LoginView) => ({
  id: l.id,
  name: l.name,
  region: l.region.code,
  agency_account_id: l.agencyAccountId,
  login_url: l.loginUrl,
  is_supported: l.isSupported,
});
export const toAccount = (legalEntityId: string, a: AgencyAccountView) => ({
  id: a.id,
  legal_entity_id: legalEntityId,
  region: a.region.code,
  name: a.name,
  agency: a.agency,
  data: a.data,
  logins: a.logins.map(toLogin),
});

/** The accounts service names the state `region_code`; these operations' bodies call it `region`. */
export const inBody = (path: (string | number)[]) => ['body', ...(path[0] === 'region_code' ? ['region', ...path.slice(1)] : path)];
