import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { assertV2Scope } from '../../http/v2-scope.js';
import {
  AccountLoginSchema,
  AccountLoginV2Schema,
  AgencyAccountSchema,
  AgencyAccountV2Schema,
  LocationIdParamsSchema,
  RegionFilterQuerySchema,
  RegionPlatformIdParamsSchema,
} from './accounts.schemas.js';
import { toAccountV2, toLoginV2 } from './accounts.views.js';
import type { AccountsService, AgencyAccountView, LoginView } from './contract.js';

// Responses are serialised from these shapes only: the secret columns have no field to land in.
const toLogin = (l: LoginView) => ({
  id: l.id,
  name: l.name,
  location_id: l.region.id,
  region_code: l.region.code,
  login_url: l.loginUrl,
  url: l.revealPath,
  is_supported: l.isSupported,
});
const toAccount = (a: AgencyAccountView) => ({
  location_id: a.region.id,
  id: a.id,
  name: a.name,
  agency: a.agency,
  data: a.data.map(({ name, description, value }) => ({ name, description, value })),
  logins: a.logins.map(toLogin),
});

const LOGINS_DOC =
  'Credentials are never returned. `url` is the path of the hosted reveal-session operation for the login ' +
  "(`POST /logins/{id}/sessions`), which hands back a short-lived link where the user can see them; `login_url` is the agency's sign-in page.";

export function accountRoutes(deps: { accounts: AccountsService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.auth.bearer };
    const security = [{ bearer: [] }];
    const accountTags = ['Agency accounts'];
    const loginTags = ['Logins'];

    r.get(
      '/agency_accounts',
      {
        ...common,
        schema: {
          operationId: 'listAgencyAccounts',
          tags: accountTags,
          security,
          summary: 'Agency accounts of the authenticated legal entity',
          description: `Each account with its data and its logins. ${LOGINS_DOC}`,
          response: { 200: Type.Array(AgencyAccountSchema), ...errorResponses(401) },
        },
      },
      async (request) => (await deps.accounts.listAccounts(scopeOf(request))).map(toAccount),
    );

    r.get(
      '/locations/:region_platform_public_id/agency_accounts',
      {
        ...common,
        schema: {
          operationId: 'listAgencyAccountsForLocation',
          tags: accountTags,
          security,
          summary: 'Agency accounts of one location',
          description: `The location id or its two-letter code; an unknown location is a 404. ${LOGINS_DOC}`,
          params: RegionPlatformIdParamsSchema,
          response: { 200: Type.Array(AgencyAccountSchema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) =>
        (await deps.accounts.listAccountsForLocation(scopeOf(request), request.params.region_platform_public_id)).map(toAccount),
    );

    r.get(
      '/v2/agency_accounts',
      {
        ...common,
        schema: {
          operationId: 'listAgencyAccountsV2',
          tags: accountTags,
          security,
          summary: 'Agency accounts, optionally of one region',
          description: `Data items carry a status (todo, in-progress, done). ${LOGINS_DOC}`,
          querystring: RegionFilterQuerySchema,
          response: { 200: Type.Array(AgencyAccountV2Schema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        return (await deps.accounts.listAccounts(scope, request.query.region ?? undefined)).map(toAccountV2);
      },
    );

    r.get(
      '/logins',
      {
        ...common,
        schema: {
          operationId: 'listLogins',
          tags: loginTags,
          security,
          summary: 'Account logins of the authenticated legal entity',
          description: LOGINS_DOC,
          response: { 200: Type.Array(AccountLoginSchema), ...errorResponses(401) },
        },
      },
      async (request) => (await deps.accounts.listLogins(scopeOf(request))).map(toLogin),
    );

    r.get(
      '/locations/:location_public_id/logins',
      {
        ...common,
        schema: {
          operationId: 'listLoginsForLocation',
          tags: loginTags,
          security,
          summary: 'Account logins of one location',
          description: `The location id or its two-letter code; an unknown location is a 404. ${LOGINS_DOC}`,
          params: LocationIdParamsSchema,
          response: { 200: Type.Array(AccountLoginSchema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => (await deps.accounts.listLoginsForLocation(scopeOf(request), request.params.location_public_id)).map(toLogin),
    );

    r.get(
      '/v2/logins',
      {
        ...common,
        schema: {
          operationId: 'listLoginsV2',
          tags: loginTags,
          security,
          summary: 'Account logins, optionally of one region',
          description: LOGINS_DOC,
          querystring: RegionFilterQuerySchema,
          response: { 200: Type.Array(AccountLoginV2Schema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        return (await deps.accounts.listLogins(scope, request.query.region ?? undefined)).map(toLoginV2);
      },
    );
  };
}
