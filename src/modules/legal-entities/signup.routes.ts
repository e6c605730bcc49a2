import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { ErrorSchema, HTTPValidationErrorSchema, PlatformErrorSchema } from '../../http/schemas.js';
import { profileFromEmbedded, profileFromHosted, profileFromV2, toAccountLegalEntity } from './legal-entities.fns.js';
import {
  AccountLegalEntitySchema,
  EmbeddedSignupRequestSchema,
  EmbeddedSignupResponseSchema,
  HostedSignupRequestSchema,
  HostedSignupResponseSchema,
  type HostedSignupRequest,
  LegacyHostedSignupResponseSchema,
  PlatformSignupRequestSchema,
  PlatformSignupResponseSchema,
} from './legal-entities.schemas.js';
import { AuthorizationHeaderSchema, VerboseQuerySchema } from '../../http/schemas.js';
import type { PlatformPrincipal } from '../platforms/contract.js';
import type { SignupService } from './signup.service.js';

const verboseEntity = { legal_entity: Type.Optional(AccountLegalEntitySchema) };
const keyErrors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: PlatformErrorSchema, 422: HTTPValidationErrorSchema };

export function signupRoutes(deps: { signup: SignupService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const { signup, auth } = deps;
    const startHostedSignup = (platform: PlatformPrincipal, body: HostedSignupRequest) =>
      signup.hostedSession(platform, {
        legalEntityId: body.legal_entity_id ?? null,
        callbackUrl: body.callback_url,
        profile: { ...profileFromHosted(body), business_name: body.business_name },
      });

    r.post(
      '/accounts/signup',
      {
        onRequest: auth.apiKey,
        schema: {
          operationId: 'embeddedSignup',
          tags: ['Signup and authentication'],
          security: [{ apiKey: [] }],
          summary: 'Create a legal entity (embedded signup)',
          description:
            'Creates an inactive legal entity owned by the calling platform and returns the URL where its user completes signup.',
          querystring: VerboseQuerySchema,
          headers: AuthorizationHeaderSchema,
          body: EmbeddedSignupRequestSchema,
          response: {
            200: Type.Object({ ...EmbeddedSignupResponseSchema.properties, ...verboseEntity }, { title: 'EmbeddedSignupResponse' }),
            ...keyErrors,
          },
        },
      },
      async (request) => {
        const { entity, session } = await signup.signup(platformOf(request), {
          ...profileFromEmbedded(request.body),
          business_name: request.body.business_name,
        });
        return {
          legal_entity_id: entity.id,
          authorization_url: session.url,
          url: session.url,
          ...(request.query.verbose && { legal_entity: toAccountLegalEntity(entity) }),
        };
      },
    );

    r.post(
      '/accounts/signup/sessions',
      {
        onRequest: auth.apiKey,
        schema: {
          operationId: 'createHostedSignupSession',
          tags: ['Signup and authentication'],
          security: [{ apiKey: [] }],
          summary: 'Create a hosted signup session',
          description:
            'Returns a single-use URL of the hosted signup. The legal entity stays inactive until its user completes it. ' +
            'Send the legal_entity_id of an earlier call to get a new link for the same entity.',
          querystring: VerboseQuerySchema,
          headers: AuthorizationHeaderSchema,
          body: HostedSignupRequestSchema,
          response: {
            200: Type.Object({ ...LegacyHostedSignupResponseSchema.properties, ...verboseEntity }, { title: 'HostedSignupResponse' }),
            ...keyErrors,
          },
        },
      },
      async (request) => {
        const { entity, session } = await startHostedSignup(platformOf(request), request.body);
        return {
          signup_url: session.url,
          url: session.url,
          created_at: session.created_at,
          expires_at: session.expires_at,
          legal_entity_id: entity.id,
          ...(request.query.verbose && { legal_entity: toAccountLegalEntity(entity) }),
        };
      },
    );

    // POST /v2/signup/sessions; the v2 document spells the same operation /v2/signup/session.
    for (const url of ['/v2/signup/sessions', '/v2/signup/session']) {
      r.post(
        url,
        {
          onRequest: auth.apiKey,
          schema: {
            operationId: url.endsWith('s') ? 'createHostedSignupSessionV2' : 'createHostedSignupSessionV2Singular',
            tags: ['Signup and authentication'],
            security: [{ apiKey: [] }],
            summary: 'Create a hosted signup session (v2)',
            headers: AuthorizationHeaderSchema,
            body: HostedSignupRequestSchema,
            response: { 200: HostedSignupResponseSchema, ...keyErrors },
          },
        },
        async (request) => {
          const { entity, session } = await startHostedSignup(platformOf(request), request.body);
          return { url: session.url, created_at: session.created_at, expires_at: session.expires_at, legal_entity_id: entity.id };
        },
      );
    }

    r.post(
      '/v2/signup',
      {
        onRequest: auth.apiKey,
        config: { errorStyle: 'platform' },
        schema: {
          operationId: 'signupV2',
          tags: ['Signup and authentication'],
          security: [{ apiKey: [] }],
          summary: 'Create a legal entity (v2)',
          description: 'Errors use `{message, detail}`; validation errors add `body`, the request body as received.',
          headers: AuthorizationHeaderSchema,
          body: PlatformSignupRequestSchema,
          response: {
            200: PlatformSignupResponseSchema,
            401: PlatformErrorSchema,
            403: PlatformErrorSchema,
            409: PlatformErrorSchema,
            422: Type.Object(
              {
                message: Type.String(),
                detail: Type.Array(Type.Object({}, { additionalProperties: true })),
                body: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
              },
              { title: 'PlatformSignupRequestValidationException' },
            ),
          },
        },
      },
      async (request) => {
        const { entity, session } = await signup.signup(platformOf(request), {
          ...profileFromV2(request.body),
          business_name: request.body.business_name,
        });
        return { legal_entity_id: entity.id, url: session.url };
      },
    );
  };
}
