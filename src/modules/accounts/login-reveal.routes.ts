import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { regionByCode } from '../../catalog/regions.js';
import type { HostedPurpose } from '../../db/schema.js';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { BoundedString, errorResponses, CallbackUrlString, Nullable, SessionResultSchema } from '../../http/schemas.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { renderLoginReveal } from '../../pages/login-pages.js';
import type { AccountsService } from './contract.js';
import { sendPage } from '../../http/pages.js';
import { hostedOf, type requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { decodeBase32, totp } from './totp.js';
import { VaultError } from '../../crypto/vault.js';

const LoginParams = Type.Object({ legal_entity_account_login_public_id: BoundedString(64) });
const V2LoginParams = Type.Object({ account_login_public_id: BoundedString(64) });
const HostedParams = Type.Object({ login_id: BoundedString(64) });

/**
 * POST /logins/{id}/sessions and POST /v2/logins/{id}/session: a hosted page that shows one login's credentials (with a current one-time code when a
 * TOTP seed is stored). Every view is recorded in `login_reveals` (platform, entity, sessions, time).
 */
export function loginRevealRoutes(deps: {
  sessions: Pick<HostedSessionsService, 'issueForCallback'>;
  accounts: AccountsService;
  auth: AuthHooks;
  now: () => Date;
  hostedPage: (purposes: HostedPurpose[]) => ReturnType<typeof requireHostedSession>;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Accounts and logins'];
    const security = [{ bearer: [] }];

    async function issue(request: Parameters<typeof scopeOf>[0], loginId: string, callbackUrl: string | null | undefined) {
      const scope = scopeOf(request);
      await deps.accounts.requireLogin(scope, loginId);
      return deps.sessions.issueForCallback({
        platformId: scope.platformId,
        legalEntityId: scope.legalEntityId,
        purpose: 'login',
        callbackUrl,
        scope: { login_id: loginId },
      });
    }

    r.post(
      '/logins/:legal_entity_account_login_public_id/sessions',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'createAccountLoginSession',
          tags,
          security,
          summary: 'A hosted page that shows one login’s credentials',
          params: LoginParams,
          body: Type.Object({ callback_url: CallbackUrlString() }, { title: 'LoginsSessionRequest' }),
          response: {
            200: Type.Object({ created_at: Type.String(), expires_at: Type.String(), url: Type.String() }),
            ...errorResponses(401, 404, 422),
          },
        },
      },
      async (request) => issue(request, request.params.legal_entity_account_login_public_id, request.body.callback_url),
    );

    r.post(
      '/v2/logins/:account_login_public_id/session',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'createAccountLoginSessionV2',
          tags,
          security,
          summary: 'A hosted page that shows one login’s credentials (v2)',
          params: V2LoginParams,
          body: Type.Object({ callback_url: Type.Optional(Nullable(CallbackUrlString())) }),
          response: { 200: SessionResultSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => issue(request, request.params.account_login_public_id, request.body.callback_url),
    );

    r.get(
      '/hosted/logins/:login_id',
      {
        preHandler: deps.hostedPage(['login']),
        schema: { hide: true, params: HostedParams },
      },
      async (request, reply) => {
        const hosted = hostedOf(request);
        const loginId = request.params.login_id;
        let revealed: Awaited<ReturnType<AccountsService['revealLogin']>> = null;
        try {
          // The audit record is written before anything is shown.
          revealed =
            hosted.session.scope.login_id === loginId
              ? await deps.accounts.revealLogin(hosted.scope, loginId, {
                  hostedSessionId: hosted.session.hosted_session_id,
                  browserSessionId: hosted.session.id,
                })
              : null;
        } catch (error) {
          if (!(error instanceof VaultError)) throw error;
          // Altered, sealed for another login, or under a key no longer configured: show nothing, say so.
          request.log.error({ loginId, reason: error.message }, 'a login secret could not be opened');
          return sendPage(
            reply,
            renderMessagePage({
              title: 'These credentials cannot be shown',
              body: 'The stored credentials of this login could not be verified, so they are not shown. Ask the operator to record them again.',
              platformName: hosted.platformName,
              brand: hosted.brand,
            }),
            { status: 409 },
          );
        }
        if (!revealed)
          return sendPage(
            reply,
            renderMessagePage({
              title: 'Login not found',
              body: 'This login is not part of this page.',
              platformName: hosted.platformName,
              brand: hosted.brand,
            }),
            { status: 404 },
          );
        const { login, secrets } = revealed;
        let code: { code: string; secondsLeft: number } | null = null;
        try {
          code = secrets.totp_seed ? totp(decodeBase32(secrets.totp_seed), deps.now().getTime()) : null;
        } catch {
          code = null;
        }
        return sendPage(
          reply,
          renderLoginReveal({
            platformName: hosted.platformName,
            brand: hosted.brand,
            callbackUrl: hosted.session.callback_url,
            login: {
              name: login.name,
              regionName: regionByCode(login.region.code)?.name ?? login.region.code,
              loginUrl: login.loginUrl,
              username: secrets.username,
              password: secrets.password,
              securityAnswers: secrets.security_answers ?? [],
              totp: code,
            },
          }),
        );
      },
    );
  };
}
