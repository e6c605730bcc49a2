import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';

/** Request headers the UI's static files answer to (conditional requests); nothing else is passed on. */
const FORWARDED_REQUEST_HEADERS = ['if-none-match', 'if-modified-since'];

/** Response headers that describe the connection or the body's framing, which the outer reply sets itself. */
const OWN_RESPONSE_HEADERS = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

/**
 * Swagger UI at `prefix` (/docs), built on its first visit. `@fastify/swagger-ui` with `@fastify/static` and
 * their dependencies is the largest code a start would otherwise load from node_modules, for a page few
 * processes ever serve (docs/decisions/0031-warm-start-cuts.md). The UI runs in a Fastify instance of its own
 * over this app's OpenAPI document; requests under `prefix` pass through this app (its hooks, rate limits,
 * request ids) and are answered by that instance. Its errors are answered in this app's envelope.
 */
export function registerDocsUi(app: FastifyInstance, prefix: string, uiConfig: Record<string, unknown>): void {
  let ui: Promise<FastifyInstance> | null = null;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    ui ??= buildUi(app.swagger() as Record<string, unknown>, prefix, uiConfig).catch((error: unknown) => {
      ui = null; // the next visit tries again
      throw error;
    });
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await (await ui).inject({ method: 'GET', url: request.url, headers });
    // In this app's error envelope (a missing file: 404 {"detail": "Not Found"}).
    if (answer.statusCode >= 400)
      throw Object.assign(new Error(`Swagger UI answered ${answer.statusCode} for ${request.url}`), { statusCode: answer.statusCode });
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !OWN_RESPONSE_HEADERS.has(name)) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  app.get(prefix, { schema: { hide: true } }, handler);
  app.get(`${prefix}/*`, { schema: { hide: true } }, handler);
  app.addHook('onClose', async () => {
    await ui?.then(
      (instance) => instance.close(),
      () => {},
    );
  });
}

async function buildUi(document: Record<string, unknown>, prefix: string, uiConfig: Record<string, unknown>): Promise<FastifyInstance> {
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  const ui = Fastify({ logger: false });
  await ui.register(swagger, { mode: 'static', specification: { document: document as never } });
  await ui.register(swaggerUi, { routePrefix: prefix, uiConfig });
  await ui.ready();
  return ui;
}
