import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { API_VERSION_HEADER, API_VERSIONS, CURRENT_API_VERSION } from './api-versions.js';
import { registerDocsUi } from './docs-ui.js';
import { documentErrorResponses } from './openapi-responses.js';

/** What the document adds besides the routes: the `webhooks` section and the schemas its entries reference. */
export interface OpenApiExtras {
  webhooks?: Record<string, unknown>;
  schemas?: Record<string, unknown>;
}

const versionSchema = { type: 'string', format: 'date', enum: API_VERSIONS.map((v) => v.version), example: CURRENT_API_VERSION };
const versionHeader = (description: string) => ({
  name: API_VERSION_HEADER,
  in: 'header',
  required: false,
  description,
  schema: versionSchema,
});

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
          'The /operator/v1 operations are for the people running Statehouse and take an operator key instead. ' +
          `Every operation takes an optional \`Statehouse-Version: YYYY-MM-DD\` header (components.parameters.StatehouseVersion; ` +
          `the current version is ${CURRENT_API_VERSION}, \`x-api-version\`): without it a request is answered under its platform's ` +
          'pinned version; every answer names the version in its own Statehouse-Version header; an unknown or malformed one is a 400.',
        // The dated API version (docs/versions.md) beside the document's own version.
        'x-api-version': CURRENT_API_VERSION,
      } as never,
      // OpenAPI 3.1 JSON built from TypeBox; the plugin types these parts for three OpenAPI versions at once.
      ...(extras.webhooks && { webhooks: extras.webhooks as never }),
      components: {
        ...(extras.schemas && { schemas: extras.schemas as never }),
        // Documented once, not on each operation: it applies to every one (docs/versions.md).
        parameters: {
          StatehouseVersion: versionHeader('Selects the dated API version for this request, overriding the platform’s pin.') as never,
        },
        headers: {
          StatehouseVersion: { description: 'The dated API version the answer was given under.', schema: versionSchema } as never,
        },
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
