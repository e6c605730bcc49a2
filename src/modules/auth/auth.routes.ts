import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { BoundedString, ErrorSchema, HTTPValidationErrorSchema, Nullable } from '../../http/schemas.js';
import { toAccountLegalEntity } from '../legal-entities/contract.js';
import { AccountLegalEntitySchema } from '../legal-entities/contract.js';
import { AuthorizationHeaderSchema, VerboseQuerySchema } from '../../http/schemas.js';
import type { SignupService } from '../legal-entities/contract.js';
import type { AccessTokens } from './contract.js';

const AuthenticateRequestSchema = Type.Object(
  { legal_entity_id: BoundedString(64, { description: 'A legal entity of the calling platform.' }) },
  { title: 'PlatformAuthenticateRequest' },
);

const SignupStateSchema = Type.Object(
  {
    legal_entity_status: Type.Union([Type.Literal('inactive'), Type.Literal('active')]),
    signup_complete: Type.Boolean(),
    signup_url: Nullable(Type.String({ description: 'While signup is incomplete: a fresh single-use link where the user finishes it.' })),
    signup_url_expires_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'AuthState' },
);

const AuthResponseSchema = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('bearer'),
    expires_in: Type.Integer({ description: 'Seconds until the token expires (600).' }),
    state: Nullable(SignupStateSchema),
    legal_entity: Type.Optional(AccountLegalEntitySchema),
  },
  { title: 'AuthSessionResponse' },
);

export function authRoutes(deps: { signup: Pick<SignupService, 'get' | 'signupState'>; tokens: AccessTokens; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    for (const url of ['/accounts/auth', '/v2/auth']) {
      const unversioned = url === '/accounts/auth';
      r.post(
        url,
        {
          onRequest: deps.auth.apiKey,
          config: { rateLimitClass: 'authentication' },
          schema: {
            operationId: unversioned ? 'authenticateLegalEntity' : 'authenticateLegalEntityV2',
            tags: ['Signup and authentication'],
            security: [{ apiKey: [] }],
            summary: 'Get a 10-minute access token for one legal entity',
            description:
              'The token is scoped to one legal entity of the calling platform. Inactive entities can be authenticated and configured; ' +
              '`state` then says signup is incomplete and gives a fresh link where the user finishes it.',
            ...(unversioned && { querystring: VerboseQuerySchema }),
            headers: AuthorizationHeaderSchema,
            body: AuthenticateRequestSchema,
            response: { 200: AuthResponseSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: HTTPValidationErrorSchema },
          },
        },
        async (request) => {
          const platform = platformOf(request);
          const entity = await deps.signup.get(platform, request.body.legal_entity_id);
          const { token } = await deps.tokens.issue({
            platformId: platform.platformId,
            legalEntityId: entity.id,
            apiKeyId: platform.apiKeyId,
          });
          const verbose = (request.query as { verbose?: boolean } | undefined)?.verbose === true;
          return {
            access_token: token,
            token_type: 'bearer' as const,
            expires_in: deps.tokens.ttlSeconds,
            state: await deps.signup.signupState(entity),
            ...(verbose && { legal_entity: toAccountLegalEntity(entity) }),
          };
        },
      );
    }
  };
}
