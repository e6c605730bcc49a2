import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/database.js';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { BoundedString, ErrorSchema, HTTPValidationErrorSchema, HttpUrlString } from '../../http/schemas.js';
import { renderPayrollConnected, renderPayrollConsent } from '../../pages/payroll-pages.js';
import type { SignupService } from '../legal-entities/signup.service.js';
import type { CallbackOrigins } from '../platforms/callback-origins.js';
import { callbackTarget, hostedOf, requireHostedSession, sendPage } from '../hosted-sessions/hosted-http.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';

const PayrollSetupRequest = Type.Object(
  {
    legal_entity_id: BoundedString(64),
    authorization_callback_url: HttpUrlString({ description: 'Where the user returns once payroll is connected.' }),
  },
  { title: 'PlatformAuthenticationSessionPayrollSetupRequest' },
);

/**
 * POST /v2/auth/payroll: connecting payroll. The platform (itself the payroll system) asks the business owner, on a hosted
 * page, to let it keep the employee configuration in sync. Once connected, `has_employees` and
 * `employee_count` belong to payroll (changing them through the API is a 409).
 */
export function payrollRoutes(deps: { db: Db; sessions: HostedSessionsService; signup: SignupService; callbackOrigins: CallbackOrigins; auth: AuthHooks; ttlSeconds: number; publicOrigin: string }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();

    r.post('/v2/auth/payroll', {
      onRequest: deps.auth.apiKey,
      config: { rateLimitClass: 'authentication' },
      schema: {
        operationId: 'setupPayrollV2', tags: ['Signup and authentication'], security: [{ apiKey: [] }],
        summary: 'A hosted page where the business owner connects payroll',
        body: PayrollSetupRequest,
        response: { 200: Type.Object({ url: Type.String() }, { title: 'PlatformAuthenticationSessionPayrollSetupResponse' }), 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: HTTPValidationErrorSchema },
      },
    }, async (request) => {
      const platform = platformOf(request);
      const entity = await deps.signup.get(platform, request.body.legal_entity_id);
      await deps.callbackOrigins.check(platform.platformId, request.body.authorization_callback_url, 'authorization_callback_url');
      const { url } = await deps.sessions.issue({ purpose: 'payroll', legalEntityId: entity.id, callbackUrl: request.body.authorization_callback_url, ttlSeconds: deps.ttlSeconds });
      return { url };
    });

    const guard = { preHandler: requireHostedSession(deps, ['payroll']), schema: { hide: true } } as const;
    const connectedAt = async (id: string) =>
      (await deps.db.selectFrom('legal_entities').select('payroll_connected_at').where('id', '=', id).executeTakeFirstOrThrow()).payroll_connected_at;

    r.get('/hosted/payroll', guard, async (request, reply) => {
      const hosted = hostedOf(request);
      if (await connectedAt(hosted.scope.legalEntityId)) {
        return sendPage(reply, renderPayrollConnected({ platformName: hosted.platformName, businessName: hosted.businessName, callbackUrl: hosted.session.callback_url }));
      }
      return sendPage(reply, renderPayrollConsent({ platformName: hosted.platformName, businessName: hosted.businessName, csrf: hosted.csrf }), { formTarget: hosted.session.callback_url });
    });

    r.post('/hosted/payroll', guard, async (request, reply) => {
      const hosted = hostedOf(request);
      const now = new Date();
      await deps.db.updateTable('legal_entities').set({ payroll_connected_at: now, last_payroll_update: now, updated_at: now })
        .where('id', '=', hosted.scope.legalEntityId).where('payroll_connected_at', 'is', null).execute();
      await deps.sessions.endBrowserSession(hosted.session.id);
      const callback = hosted.session.callback_url;
      if (callback) return reply.header('referrer-policy', 'no-referrer').redirect(callbackTarget(callback, hosted.scope.legalEntityId, 'connected'), 303);
      return sendPage(reply, renderPayrollConnected({ platformName: hosted.platformName, businessName: hosted.businessName, callbackUrl: null }));
    });
  };
}
