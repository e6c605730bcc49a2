import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { registerDocsUi } from './docs-ui.js';
import { documentErrorResponses } from './openapi-responses.js';

/** What the document adds besides the routes: the `webhooks` section and the schemas its entries reference. */
export interface OpenApiExtras {
  webhooks?: Record<string, unknown>;
  schemas?: Record<string, unknown>;
}

/** The OpenAPI 3.1 document is generated from the routes' TypeBox schemas; /docs renders it (built on its first visit). */
export async function registerOpenApi(app: FastifyInstance, extras: OpenApiExtras = {}): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Statehouse API',
        version: '1.0.0',
        description:
          'Compliance onboarding and tasks for platforms that manage US businesses. ' +
          'Signup and auth operations take the platform API key in the Authorization header; every other operation takes a ' +
          '10-minute access token from POST /accounts/auth as `Authorization: Bearer <token>`. ' +
          'The /operator/v1 operations are for the people running Statehouse and take an operator key instead.',
      },
      // OpenAPI 3.1 JSON built from TypeBox; the plugin types these parts for three OpenAPI versions at once.
      ...(extras.webhooks && { webhooks: extras.webhooks as never }),
      components: {
        ...(extras.schemas && { schemas: extras.schemas as never }),
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Access token from POST /accounts/auth or /v2/auth.' },
          apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Platform API key, raw or as `Bearer <key>`.' },
          operatorKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'Operator key (`sh_op_…`, from `statehouse operators keys create`), for the /operator/v1 operations only.',
          },
        },
      },
    },
  });
  registerDocsUi(app, '/docs', { docExpansion: 'list', deepLinking: true });
  documentErrorResponses(app);
}
