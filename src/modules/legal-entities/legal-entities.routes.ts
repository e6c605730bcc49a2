import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { toAccountLegalEntity, toPlatformLegalEntity } from './legal-entities.fns.js';
import { AccountLegalEntitySchema, PlatformLegalEntitySchema } from './legal-entities.schemas.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import type { SignupService } from './signup.service.js';
import { assertV2Scope } from '../../http/v2-scope.js';

export function legalEntityRoutes(deps: { signup: SignupService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    r.get(
      '/legal_entity',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'getLegalEntity',
          tags: ['Legal entity'],
          summary: 'The authenticated legal entity',
          security: [{ bearer: [] }],
          response: { 200: AccountLegalEntitySchema, ...errorResponses(401) },
        },
      },
      async (request) => toAccountLegalEntity(await deps.signup.get(scopeOf(request), scopeOf(request).legalEntityId)),
    );

    r.get(
      '/v2/legal_entity',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'getLegalEntityV2',
          tags: ['Legal entity'],
          summary: 'The authenticated legal entity (v2 spelling)',
          security: [{ bearer: [] }],
          querystring: V2ScopeQuerySchema,
          response: { 200: PlatformLegalEntitySchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        return toPlatformLegalEntity(await deps.signup.get(scope, scope.legalEntityId));
      },
    );
  };
}
