import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { registerApiVersionHeader } from './http/api-version-header.js';
import { API_VERSION_HEADER, CURRENT_API_VERSION } from './http/api-versions.js';
import { normaliseContentType, registerBodyParsers } from './http/body-parsers.js';
import { answerClientError } from './http/client-errors.js';
import { MAX_PARAM_LENGTH, registerErrorHandling, registerNotFound } from './http/error-handler.js';
import { lazySerializerFactory } from './http/lazy-serializers.js';
import { logDestination, RequestLogController } from './http/logging.js';
import { REQUEST_ID_HEADER, requestIdFor, setRequestIdHeader } from './http/request-id.js';
import { CALENDAR_FEED_PATH } from './modules/calendar/contract.js';
import { HANDBOOK_ACK_PATH } from './modules/handbook/contract.js';
import { HOSTED_SESSION_PATH, hostedPageErrors } from './modules/hosted-sessions/contract.js';
import { OPERATOR_LINK_PATH } from './modules/operators/contract.js';
import { CONSOLE_INVITE_PATH } from './modules/console/contract.js';

const SECRET_IN_URL = new RegExp(
  `(${HOSTED_SESSION_PATH}|${OPERATOR_LINK_PATH}|${CONSOLE_INVITE_PATH}|${CALENDAR_FEED_PATH}|${HANDBOOK_ACK_PATH})[^/?#]+`,
  'g',
);

const SIGNATURE_IN_QUERY = /([?&]signature=)[^&#]*/g;

/**
 * Hosted-session and back-office sign-in links and calendar feed URLs carry a secret in the path, signed file links
 * one in the query (each is a credential until it expires or is revoked): never let one reach a log line.
 */
export const redactUrl = (url: string) => url.replace(SECRET_IN_URL, '$1[redacted]').replace(SIGNATURE_IN_QUERY, '$1[redacted]');

/**
 * The Fastify instance every route is registered on, with what applies to all of them: logging (secrets redacted),
 * request ids, body parsing, the error envelope and the 404/405 answers. buildApp (app.ts) adds the modules.
 */
export async function createHttpApp(config: Config, logger?: false | { stream?: { write(line: string): void } }): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id }),
            },
            ...(await logDestination(config, logger?.stream)),
          },
    logController: new RequestLogController(), // per request at debug only
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
    bodyLimit: config.bodyLimitBytes,
    // The caller's X-Request-Id when sane, else a generated one; pino logs it as `reqId` on every request line.
    genReqId: requestIdFor,
    requestIdHeader: false,
    // http/load-shedding.ts answers requests that arrive while closing (503 in the envelope).
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    forceCloseConnections: 'idle',
    // Long enough that an over-long path parameter reaches validation (a 422), not the router's 414.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A path that is not valid percent-encoding cannot name any resource.
    frameworkErrors: (error, request, reply) => {
      const notFound = error.code === 'FST_ERR_BAD_URL';
      const raw = reply.raw;
      raw.statusCode = notFound ? 404 : 400;
      setRequestIdHeader(raw, request.id);
      raw.setHeader(API_VERSION_HEADER, CURRENT_API_VERSION);
      raw.setHeader('content-type', 'application/json; charset=utf-8');
      raw.end(JSON.stringify({ detail: notFound ? 'Not Found' : 'Bad Request' }));
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    normaliseContentType(request.headers);
    done();
  });
  // Validation is ours (pydantic-compatible, see http/request-validation.ts); Fastify's ajv is switched off.
  app.setValidatorCompiler(() => () => true);

  registerApiVersionHeader(app);
  registerBodyParsers(app);
  registerErrorHandling(app, config.bodyLimitBytes, hostedPageErrors);
  registerNotFound(app);
  return app;
}
