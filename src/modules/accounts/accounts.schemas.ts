import { Type, type Static } from 'typebox';
import { BoundedString, Nullable, StringEnum } from '../../http/schemas.js';
import { RegionInput, StateCode } from '../legal-entities/contract.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';

export const AGENCY_DATA_STATUSES = ['todo', 'in-progress', 'done'] as const;

export const PlatformAgencySchema = Type.Object(
  { id: Type.String({ description: 'Agency id of the catalog, e.g. `ca-edd`.' }), name: Type.String(), website: Type.String() },
  { title: 'PlatformAgency' },
);

const URL_DOC =
  "Where to reveal the login's credentials: the path of the hosted reveal-session operation, `/logins/{id}/sessions` " +
  '(credentials are never part of any API response).';

/** Unversioned login: the reference's fields and the ones its listing example shows (region_code, is_supported). */
export const AccountLoginSchema = Type.Object(
  {
    id: Type.String({ description: 'The identifier of this Account Login' }),
    name: Type.String({ description: 'The name of the Login' }),
    location_id: Type.String({ description: 'The location id the login belongs to' }),
    region_code: Type.String({ description: 'Two-letter code of the location' }),
    login_url: Type.String({ description: 'The sign-in page of the agency site.' }),
    url: Type.String({ description: URL_DOC }),
    is_supported: Type.Boolean({ description: 'Whether Statehouse can use this login for automation.' }),
  },
  { title: 'PlatformLegalEntityAccountLogin' },
);

/** v2 login: the reference's fields (region) plus the unversioned ones. */
export const AccountLoginV2Schema = Type.Object(
  {
    id: Type.String({ description: 'The identifier of this Account Login' }),
    name: Type.String({ description: 'The name of the Login' }),
    region: StateCode,
    region_code: Type.String({ description: 'Two-letter code of the state (same as region)' }),
    login_url: Type.String({ description: 'The sign-in page of the agency site.' }),
    url: Type.String({ description: URL_DOC }),
    is_supported: Type.Boolean({ description: 'Whether Statehouse can use this login for automation.' }),
  },
  { title: 'PlatformLegalEntityAccountLoginV2' },
);

export const AgencyAttributeSchema = Type.Object(
  { name: Type.String(), description: Nullable(Type.String()), value: Nullable(Type.String()) },
  { title: 'PlatformAgencyAttributeAndValue' },
);
export const AgencyAttributeV2Schema = Type.Object(
  {
    name: Type.String(),
    description: Nullable(Type.String()),
    value: Nullable(Type.String()),
    status: StringEnum(AGENCY_DATA_STATUSES, { title: 'PlatformAgencyAttributeStatus' }),
  },
  { title: 'PlatformAgencyAttributeAndValueV2' },
);

export const AgencyAccountSchema = Type.Object(
  {
    location_id: Type.String(),
    id: Type.String(),
    name: Type.String(),
    agency: PlatformAgencySchema,
    data: Type.Array(AgencyAttributeSchema),
    logins: Type.Array(AccountLoginSchema),
  },
  { title: 'PlatformAgencyAccount' },
);

export const AgencyAccountV2Schema = Type.Object(
  {
    region: StateCode,
    id: Type.String(),
    name: Type.String(),
    agency: PlatformAgencySchema,
    data: Type.Array(AgencyAttributeV2Schema),
    logins: Type.Array(AccountLoginV2Schema),
  },
  { title: 'PlatformAgencyAccountV2' },
);

export const RegionPlatformIdParamsSchema = Type.Object({ region_platform_public_id: BoundedString(64) });
export const LocationIdParamsSchema = Type.Object({ location_public_id: BoundedString(64) });

export const RegionFilterQuerySchema = Type.Object({ region: Type.Optional(Nullable(RegionInput)), ...V2ScopeQuerySchema.properties });
export type RegionFilterQuery = Static<typeof RegionFilterQuerySchema>;
