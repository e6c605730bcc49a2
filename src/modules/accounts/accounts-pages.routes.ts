import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { regionByCode, resolveRegion } from '../../catalog/regions.js';
import type { HostedPurpose } from '../../db/schema.js';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { BoundedString, errorResponses, CallbackUrlString, Nullable, SessionResultSchema } from '../../http/schemas.js';
import { fieldError } from '../../lib/errors.js';
import type { Catalog } from '../../catalog/catalog.js';
import { ADD_ACCOUNT_KEY, renderAccountsPage, type FailedForm, type LoginItem } from '../../pages/account-pages.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { formOf, sendPage } from '../../http/pages.js';
import { hostedOf, type HostedContext, type requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import { assertV2Scope } from '../../http/v2-scope.js';
import type { AccountsService, LoginView } from './contract.js';
import { parseCredentialsForm } from './credentials.input.js';

const ManageSessionBody = Type.Object(
  {
    callback_url: CallbackUrlString({ description: 'Where the user returns when done.' }),
    region_id: Type.Optional(Nullable(BoundedString(64, { description: 'Only this region (location id or two-letter code).' }))),
  },
  { title: 'ScopedHostedSessionRequest' },
);
const PageQuery = Type.Object({ saved: Type.Optional(BoundedString(64)), added: Type.Optional(BoundedString(64)) });
const MAX_ACCOUNT_NAME = 200;
const LoginParams = Type.Object({ login_id: BoundedString(64) });

const regionName = (code: string) => regionByCode(code)?.name ?? code;

const toLoginItem = (l: LoginView): LoginItem => ({
  id: l.id,
  name: l.name,
  regionName: l.region.name,
  loginUrl: l.loginUrl,
  isSupported: l.isSupported,
  updatedAt: l.updatedAt ?? null,
});

/**
 * POST /v2/accounts/manage/session: a hosted page with the entity's agency accounts and logins (optionally of one region), where
 * the user adds a login to an account or replaces a login's credentials. Nothing stored is ever shown.
 */
export function accountsPageRoutes(deps: {
  sessions: Pick<HostedSessionsService, 'issueForCallback'>;
  accounts: AccountsService;
  auth: AuthHooks;
  hostedPage: (purposes: HostedPurpose[]) => ReturnType<typeof requireHostedSession>;
  /** The agencies an account can be added with. */
  catalog: Pick<Catalog, 'regions'>;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const guard = deps.hostedPage(['accounts']);

    r.post(
      '/v2/accounts/manage/session',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'createAccountsManagementSessionV2',
          tags: ['Accounts and logins'],
          security: [{ bearer: [] }],
          summary: 'A hosted page where the user sees the agency accounts and stores login credentials',
          description:
            'The page lists the agency accounts (with their data and logins) and the other logins of the entity, optionally of one ' +
            'region (`region_id`: a location id or a two-letter code), and lets the user add a login to an account or replace a ' +
            'login’s credentials. Stored credentials are never shown there (see `POST /v2/logins/{id}/session`).',
          querystring: V2ScopeQuerySchema,
          body: ManageSessionBody,
          response: { 200: SessionResultSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        const body = request.body;
        const region = body.region_id ? resolveRegion(body.region_id) : null;
        if (body.region_id && !region) throw fieldError(['body', 'region_id'], `unknown region '${body.region_id}'`, body.region_id, body);
        return deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'accounts',
          callbackUrl: body.callback_url,
          scope: region ? { region_id: region.code } : {},
        });
      },
    );

    /** What the session may see: its entity's accounts and logins, of its region when it has one. */
    async function inScope(hosted: HostedContext) {
      const regionCode = hosted.session.scope.region_id;
      const [accounts, logins] = await Promise.all([
        deps.accounts.listAccounts(hosted.scope, regionCode),
        deps.accounts.listLogins(hosted.scope, regionCode),
      ]);
      return { regionCode, accounts, logins };
    }

    /** The agencies of the session's state, or of every state, by state name; values are `<state>:<agency id>`. */
    function agencyChoices(regionCode: string | undefined) {
      return [...deps.catalog.regions.values()]
        .filter((r) => !regionCode || r.region.code === regionCode)
        .map((r) => ({
          regionName: r.region.name,
          agencies: [...r.agencies.values()].map((a) => ({ value: `${r.region.code}:${a.id}`, name: a.name })),
        }))
        .filter((g) => g.agencies.length > 0)
        .sort((a, b) => a.regionName.localeCompare(b.regionName));
    }

    async function sendAccountsPage(
      reply: FastifyReply,
      hosted: HostedContext,
      options: { savedLoginId?: string | undefined; addedAccountId?: string | undefined; failed?: FailedForm; status?: number },
    ) {
      const { regionCode, accounts, logins } = await inScope(hosted);
      return sendPage(
        reply,
        renderAccountsPage({
          platformName: hosted.platformName,
          brand: hosted.brand,
          businessName: hosted.businessName,
          scopeLabel: regionCode ? regionName(regionCode) : 'All states',
          accounts: accounts.map((a) => ({
            id: a.id,
            name: a.name,
            regionName: a.region.name,
            agency: { name: a.agency.name, website: a.agency.website },
            data: a.data,
            logins: a.logins.map(toLoginItem),
          })),
          otherLogins: logins.filter((l) => l.agencyAccountId === null).map(toLoginItem),
          csrf: hosted.csrf,
          callbackUrl: hosted.session.callback_url,
          savedLoginName: (options.savedLoginId && logins.find((l) => l.id === options.savedLoginId)?.name) || null,
          failed: options.failed ?? null,
          agencyChoices: agencyChoices(regionCode),
          addedAccountName: (options.addedAccountId && accounts.find((a) => a.id === options.addedAccountId)?.name) || null,
        }),
        { status: options.status ?? 200 },
      );
    }

    const notFound = (reply: FastifyReply, hosted: HostedContext, what: 'Account' | 'Login') =>
      sendPage(
        reply,
        renderMessagePage({
          title: `${what} not found`,
          body: `This ${what.toLowerCase()} is not part of this page.`,
          platformName: hosted.platformName,
          brand: hosted.brand,
        }),
        { status: 404 },
      );

    /** The failed form comes back with its errors and only the values that are not secret. */
    const failedForm = (key: string, form: Record<string, string>, errors: Record<string, string>): FailedForm => ({
      key,
      errors,
      values: { username: form.username ?? '', security_question: form.security_question ?? '' },
    });

    const savedRedirect = (reply: FastifyReply, loginId: string) =>
      reply.redirect(`/hosted/accounts?saved=${encodeURIComponent(loginId)}`, 303);

    r.get('/hosted/accounts', { preHandler: guard, schema: { hide: true, querystring: PageQuery } }, async (request, reply) =>
      sendAccountsPage(reply, hostedOf(request), { savedLoginId: request.query.saved, addedAccountId: request.query.added }),
    );

    // The owner adds an account they already have: an agency of the session's states and an optional name. The login comes next.
    r.post('/hosted/accounts/accounts', { preHandler: guard, schema: { hide: true } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const [regionCode = '', agencyId = ''] = (form.agency ?? '').split(':');
      const regionScope = hosted.session.scope.region_id;
      const agency = !regionScope || regionScope === regionCode ? deps.catalog.regions.get(regionCode)?.agencies.get(agencyId) : undefined;
      const name = (form.account_name ?? '').trim();
      const errors: Record<string, string> = {};
      if (!agency) errors.agency = form.agency ? 'Choose an agency from the list' : 'Choose the agency of the account';
      if (name.length > MAX_ACCOUNT_NAME) errors.account_name = `Use at most ${MAX_ACCOUNT_NAME} characters`;
      else if (/[\u0000-\u001f\u007f]/.test(name)) errors.account_name = 'Use letters, digits and punctuation only';
      if (!agency || Object.keys(errors).length > 0) {
        const failed: FailedForm = {
          key: ADD_ACCOUNT_KEY,
          errors,
          values: { agency: form.agency ?? '', account_name: form.account_name ?? '' },
        };
        return sendAccountsPage(reply, hosted, { failed, status: 422 });
      }
      const created = await deps.accounts.createAccount(hosted.scope.legalEntityId, {
        region_code: regionCode,
        agency_id: agencyId,
        name: name || agency.name,
      });
      return reply.redirect(`/hosted/accounts?added=${encodeURIComponent(created.id)}#account-${encodeURIComponent(created.id)}`, 303);
    });

    r.post('/hosted/accounts/logins', { preHandler: guard, schema: { hide: true } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const accountId = form.agency_account_id ?? '';
      const account = (await inScope(hosted)).accounts.find((a) => a.id === accountId);
      if (!account) return notFound(reply, hosted, 'Account');
      const parsed = parseCredentialsForm(form);
      if (!parsed.ok) return sendAccountsPage(reply, hosted, { failed: failedForm(`new-${account.id}`, form, parsed.errors), status: 422 });
      const login = await deps.accounts.saveLoginCredentials(hosted.scope.legalEntityId, {
        agencyAccountId: account.id,
        secrets: parsed.secrets,
      });
      return savedRedirect(reply, login.id);
    });

    r.post(
      '/hosted/accounts/logins/:login_id',
      { preHandler: guard, schema: { hide: true, params: LoginParams } },
      async (request, reply) => {
        const hosted = hostedOf(request);
        const form = formOf(request);
        const login = (await inScope(hosted)).logins.find((l) => l.id === request.params.login_id);
        if (!login) return notFound(reply, hosted, 'Login');
        const parsed = parseCredentialsForm(form);
        if (!parsed.ok)
          return sendAccountsPage(reply, hosted, { failed: failedForm(`login-${login.id}`, form, parsed.errors), status: 422 });
        await deps.accounts.updateLoginCredentials(hosted.scope.legalEntityId, login.id, parsed.secrets);
        return savedRedirect(reply, login.id);
      },
    );
  };
}
