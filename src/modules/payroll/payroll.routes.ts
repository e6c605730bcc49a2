import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { BoundedString, ErrorSchema, HTTPValidationErrorSchema, CallbackUrlString } from '../../http/schemas.js';
import { renderPayrollConnected, renderPayrollConsent } from '../../pages/payroll-pages.js';
import { callbackTarget, sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import type { PayrollService } from './payroll.service.js';

const PayrollSetupRequest = Type.Object(
  {
    legal_entity_id: BoundedString(64),
    authorization_callback_url: CallbackUrlString({ description: 'Where the user returns once payroll is connected.' }),
  },
  { title: 'PlatformAuthenticationSessionPayrollSetupRequest' },
);

/** POST /v2/auth/payroll and the consent page behind its link (GET and POST /hosted/payroll); see payroll.service.ts. */
export function payrollRoutes(deps: {
  payroll: PayrollService;
  sessions: Pick<HostedSessionsService, 'check' | 'endBrowserSession'>;
  auth: AuthHooks;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();

    r.post(
      '/v2/auth/payroll',
      {
        onRequest: deps.auth.apiKey,
        config: { rateLimitClass: 'authentication' },
        schema: {
          operationId: 'setupPayrollV2',
          tags: ['Signup and authentication'],
          security: [{ apiKey: [] }],
          summary: 'A hosted page where the business owner connects payroll',
          body: PayrollSetupRequest,
          response: {
            200: Type.Object({ url: Type.String() }, { title: 'PlatformAuthenticationSessionPayrollSetupResponse' }),
            401: ErrorSchema,
            403: ErrorSchema,
            404: ErrorSchema,
            422: HTTPValidationErrorSchema,
          },
        },
      },
      async (request) =>
        deps.payroll.setupSession(platformOf(request), request.body.legal_entity_id, request.body.authorization_callback_url),
    );

    const guard = { preHandler: requireHostedSession(deps, ['payroll']), schema: { hide: true } } as const;

    r.get('/hosted/payroll', guard, async (request, reply) => {
      const hosted = hostedOf(request);
      if (await deps.payroll.isConnected(hosted.scope.legalEntityId)) {
        return sendPage(
          reply,
          renderPayrollConnected({
            platformName: hosted.platformName,
            brand: hosted.brand,
            businessName: hosted.businessName,
            callbackUrl: hosted.session.callback_url,
          }),
        );
      }
      return sendPage(
        reply,
        renderPayrollConsent({
          platformName: hosted.platformName,
          brand: hosted.brand,
          businessName: hosted.businessName,
          csrf: hosted.csrf,
        }),
        { formTarget: hosted.session.callback_url },
      );
    });

    r.post('/hosted/payroll', guard, async (request, reply) => {
      const hosted = hostedOf(request);
      await deps.payroll.connect(hosted.scope);
      await deps.sessions.endBrowserSession(hosted.session);
      const callback = hosted.session.callback_url;
      if (callback)
        return reply
          .header('referrer-policy', 'no-referrer')
          .redirect(callbackTarget(callback, hosted.scope.legalEntityId, 'connected'), 303);
      return sendPage(
        reply,
        renderPayrollConnected({
          platformName: hosted.platformName,
          brand: hosted.brand,
          businessName: hosted.businessName,
          callbackUrl: null,
        }),
      );
    });
  };
}
