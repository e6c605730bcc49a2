import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses, SessionResultSchema } from '../../http/schemas.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import { assertV2Scope } from '../../http/v2-scope.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import { HandbookAutomationSessionSchema, HandbookSchema, HandbookSessionBodySchema } from './handbook.schemas.js';
import type { HandbookOverviewService } from './handbook-overview.service.js';

/** GET /v2/handbook and the two operations that open the hosted builder (entity bearer token). */
export function handbookRoutes(deps: {
  overview: Pick<HandbookOverviewService, 'summary'>;
  sessions: Pick<HostedSessionsService, 'issueForCallback'>;
  auth: AuthHooks;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Handbook'];
    const security = [{ bearer: [] }];
    const common = { onRequest: deps.auth.bearer };

    r.get(
      '/v2/handbook',
      {
        ...common,
        schema: {
          operationId: 'getHandbookV2',
          tags,
          security,
          summary: 'The employee handbook: policies, whether it can be published, acknowledgements',
          description:
            'One body for both reference documents: the summary fields at the top level (v2) and `summary`/`details` nested ' +
            '(unversioned, which spells the count `number_of_adopotable_policies`; both spellings are sent). ' +
            '`details.handbook_automation_url` is a fresh single-use link to the hosted builder. See docs/handbook.md.',
          querystring: V2ScopeQuerySchema,
          response: { 200: HandbookSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        const summary = await deps.overview.summary(scope);
        const link = await deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'handbook',
          callbackUrl: null,
        });
        const fields = {
          number_of_adoptable_policies: summary.adoptable,
          publishable: summary.publishable,
          has_published: summary.hasPublished,
          acknowledgement_stats: summary.stats,
        };
        return {
          ...fields,
          summary: { ...fields, number_of_adopotable_policies: summary.adoptable },
          details: { handbook_automation_url: link.url },
        };
      },
    );

    r.post(
      '/v2/handbook/automate/sessions',
      {
        ...common,
        schema: {
          operationId: 'createHandbookAutomationSessionV2',
          tags,
          security,
          summary: 'A hosted handbook builder page for the owner',
          description:
            'The owner answers the questions the policies need, adopts or skips optional policies, lists employees and publishes.',
          querystring: V2ScopeQuerySchema,
          body: HandbookSessionBodySchema,
          response: { 200: HandbookAutomationSessionSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        const { url, created_at, expires_at } = await deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'handbook',
          callbackUrl: request.body.callback_url,
        });
        return { automation_url: url, created_at, expires_at };
      },
    );

    r.post(
      '/v2/handbook/session',
      {
        ...common,
        schema: {
          operationId: 'createHandbookSessionV2',
          tags,
          security,
          summary: 'A hosted handbook builder page for the owner (the same page, as a session result)',
          querystring: V2ScopeQuerySchema,
          body: HandbookSessionBodySchema,
          response: { 200: SessionResultSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        return deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'handbook',
          callbackUrl: request.body.callback_url,
        });
      },
    );
  };
}
