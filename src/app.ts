import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { registerAuth } from './http/auth.js';
import { normaliseContentType, registerBodyParsers } from './http/body-parsers.js';
import { MAX_PARAM_LENGTH, registerErrorHandling, registerNotFound } from './http/error-handler.js';
import { registerOpenApi } from './http/openapi.js';
import { answerClientError } from './http/client-errors.js';
import { registerLoadShedding } from './http/load-shedding.js';
import { registerRateLimits } from './http/rate-limits.js';
import { createOperatorsModule, registerOperatorAuth } from './modules/operators/index.js';
import { noJobQueue, type JobDefinition, type JobSender } from './jobs/queue.js';
import { validateRequest } from './http/request-validation.js';
import { REQUEST_ID_HEADER, requestIdFor, setRequestIdHeader } from './http/request-id.js';
import { registerMetrics } from './modules/metrics/metrics.plugin.js';
import { createAccessTokens } from './modules/auth/access-tokens.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createMailModule, type MailService } from './modules/mail/index.js';
import { createAccountsModule, type AccountsService } from './modules/accounts/index.js';
import { createConnectionsModule } from './modules/connections/index.js';
import { createSandboxConnector } from './modules/connections/sandbox-connector.js';
import { createVault, loadVaultKeys } from './modules/accounts/vault.js';
import { HOSTED_SESSION_PATH, createHostedSessionsService } from './modules/hosted-sessions/hosted-sessions.service.js';
import { hostedRoutes } from './modules/hosted/hosted.routes.js';
import { hostedPageErrors } from './modules/hosted-sessions/hosted-http.js';
import { signupPageRoutes } from './modules/hosted/signup-pages.routes.js';
import { automationPageRoutes } from './modules/hosted/automation-pages.routes.js';
import { payrollRoutes } from './modules/hosted/payroll-pages.routes.js';
import { taskPageRoutes } from './modules/hosted/task-pages.routes.js';
import { createSystemModule, INSTANCE_KEY } from './modules/system/index.js';
import { createAutomationService } from './modules/tasks/automation.service.js';
import { taskSessionRoutes } from './modules/tasks/tasks.sessions.routes.js';
import { legalEntityRoutes } from './modules/legal-entities/legal-entity.routes.js';
import { signupRoutes } from './modules/legal-entities/signup.routes.js';
import { createSignupService } from './modules/legal-entities/signup.service.js';
import { locationRoutes } from './modules/locations/locations.routes.js';
import { createLocationsService } from './modules/locations/locations.service.js';
import { regionV2Routes } from './modules/locations/locations.v2.routes.js';
import { createPlatformsModule } from './modules/platforms/index.js';
import { loadCatalog, type Catalog } from './catalog/catalog.js';
import { taskRoutes } from './modules/tasks/tasks.routes.js';
import { createTaskListCache } from './modules/tasks/task-list-cache.js';
import { createTasksService, type TasksService } from './modules/tasks/tasks.service.js';
import { taskV2Routes } from './modules/tasks/tasks.v2.routes.js';
import { logDestination, RequestLogController } from './http/logging.js';
import { lazySerializerFactory } from './http/lazy-serializers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Domain services, for the background jobs and operator commands that run beside the HTTP API. */
    services: {
      tasks: TasksService; catalog: Catalog; accounts: AccountsService; mail: MailService;
      /** Background jobs of the domain services, run by the server's job queue. */
      jobDefinitions: JobDefinition[];
    };
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  /** false for silence; `stream` sends the (redacted) log lines elsewhere, e.g. to a test. */
  logger?: false | { stream?: { write(line: string): void } };
  now?: () => number;
  /** The compliance catalog; loaded from catalog/ when not given. */
  catalog?: Catalog;
  /**
   * Keys of the login vault (first = current). When not given: config.vaultKeys, else the data
   * directory's vault.key, read (or created) when the app is built (the instance keys are sealed with it).
   */
  vaultKeys?: Buffer[];
  /** Where services put durable background work; without it, enqueueing fails (tests that need none). */
  jobs?: JobSender;
}

const SECRET_IN_URL = new RegExp(`(${HOSTED_SESSION_PATH})[^/?#]+`, 'g');

const SIGNATURE_IN_QUERY = /([?&]signature=)[^&#]*/g;

/**
 * Hosted-session links carry a secret in the path, signed file links one in the query (each is a
 * credential until it expires): never let either reach a log line.
 */
export const redactUrl = (url: string) => url.replace(SECRET_IN_URL, '$1[redacted]').replace(SIGNATURE_IN_QUERY, '$1[redacted]');

/** Builds the HTTP application over a database; never listens (server.ts does). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    logger: deps.logger === false
      ? false
      : {
          level: config.logLevel,
          redact: ['req.headers.authorization', 'req.headers.cookie'],
          serializers: {
            req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id }),
          },
          ...(await logDestination(config, deps.logger?.stream)),
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

  registerBodyParsers(app);
  registerErrorHandling(app, config.bodyLimitBytes, hostedPageErrors);
  registerNotFound(app);
  // Its response hook measures every route and the 404/405 handler; /metrics itself is served here.
  await registerMetrics(app, { db, jobs: deps.jobs, token: config.metricsToken });
  app.addHook('preHandler', validateRequest);
  await registerOpenApi(app);

  const jobs = deps.jobs ?? noJobQueue;
  const platformsModule = createPlatformsModule({ db, requireRegisteredCallbacks: config.environment === 'production' });
  const { platforms, callbackOrigins } = platformsModule;
  // Instance keys are sealed with the vault key, so the vault's keys are read at build (a wrong key stops the start).
  const vault = createVault(deps.vaultKeys ?? (() => loadVaultKeys(config)));
  const system = createSystemModule({ db, vault });
  const { instanceKeys } = system;
  const previousTokenKey = await instanceKeys.previous(INSTANCE_KEY.accessTokens);
  const tokenKeys = [await instanceKeys.get(INSTANCE_KEY.accessTokens), ...(previousTokenKey ? [previousTokenKey] : [])];
  await Promise.all([instanceKeys.get(INSTANCE_KEY.csrf), instanceKeys.get(INSTANCE_KEY.fileLinks)]);
  const tokens = createAccessTokens(tokenKeys, config.accessTokenTtlSeconds, deps.now);
  const auth = registerAuth(app, platforms, tokens);
  const sessions = createHostedSessionsService(db, config.publicBaseUrl, deps.now && (() => new Date(deps.now!())), () => instanceKeys.get(INSTANCE_KEY.csrf));
  const catalog = deps.catalog ?? loadCatalog();
  const now = () => new Date(deps.now ? deps.now() : Date.now());
  const tasks = createTasksService({
    db,
    catalog,
    now,
    // A question that collects a location fact updates the location (its rules, like the payroll lock, apply).
    applyLocationChange: (scope, code, change) => locations.update(scope, code, change),
  });
  const regenerate = (legalEntityId: string) => tasks.regenerate(legalEntityId);
  const signup = createSignupService({ db, sessions, signupTtlSeconds: config.signupSessionTtlSeconds, onProfileChanged: regenerate, callbackOrigins });
  const automation = createAutomationService({ db, tasks, now });
  const locations = createLocationsService(db, { onChange: regenerate });
  const operatorsModule = createOperatorsModule({ db });
  const operatorAuth = registerOperatorAuth(app, operatorsModule.operators);
  const accountsModule = createAccountsModule({ db, catalog, vault });
  const { accounts } = accountsModule;

  // Cheap refusal before any route's own work; registered after the synchronous setup above (catalog) so
  // that start-up is not mistaken for an overloaded event loop.
  await registerLoadShedding(app, config.loadShedding);
  await registerRateLimits(app, config.rateLimits);

  await app.register(system.routes());
  await app.register(signupRoutes({ signup, auth }));
  await app.register(authRoutes({ signup, tokens, auth }));
  await app.register(legalEntityRoutes({ signup, auth }));
  await app.register(locationRoutes({ locations, auth }));
  await app.register(regionV2Routes({ locations, auth }));
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  app.decorateRequest('hosted', null);
  // Secure cookies whenever links are https, and always in production (behind a TLS-terminating proxy too).
  await app.register(hostedRoutes({ sessions, secureCookies: publicOrigin.startsWith('https:') || config.environment === 'production' }));
  await app.register(signupPageRoutes({ db, sessions, signup, publicOrigin }));
  const taskLists = createTaskListCache(db);
  await app.register(taskRoutes({ tasks, catalog, auth, cache: taskLists }));
  await app.register(taskV2Routes({ tasks, catalog, auth, cache: taskLists }));
  await app.register(taskSessionRoutes({ tasks, automation, sessions, callbackOrigins, ttlSeconds: config.hostedSessionTtlSeconds, auth }));
  await app.register(taskPageRoutes({ db, sessions, tasks, catalog, publicOrigin }));
  await app.register(automationPageRoutes({ db, sessions, automation, publicOrigin }));
  await app.register(payrollRoutes({ db, sessions, signup, callbackOrigins, auth, ttlSeconds: config.hostedSessionTtlSeconds, publicOrigin }));
  // --- mail (GET /mail, /locations/{id}/mail, /v2/mail, /v2/documents/manage/session, signed file links, operator intake) ---
  const mailModule = createMailModule({ config, db, now, instanceKeys });
  const { mail } = mailModule;
  await app.register(mailModule.routes({ auth, sessions, callbackOrigins, operatorAuth, publicOrigin }));

  // --- connections (POST /accounts/connect, GET and cancel /accounts/connections/{id}, hosted connect page, connector jobs) ---
  const connectionsModule = createConnectionsModule({
    db, accounts, sessions, jobs, catalog, connector: createSandboxConnector(), stepMs: config.sandboxConnectorStepMs,
    hostedSessionTtlSeconds: config.hostedSessionTtlSeconds, now,
  });
  await app.register(connectionsModule.routes({ auth, publicOrigin }));

  // --- accounts (listings, login reveal operations and page, accounts management page) ---
  await app.register(accountsModule.routes({ auth, sessions, callbackOrigins, publicOrigin, ttlSeconds: config.hostedSessionTtlSeconds, now }));

  // --- operator API ---
  await app.register(operatorsModule.routes({ operatorAuth, accounts, connections: connectionsModule.connections }));

  // Background jobs of the modules, run by src/server.ts's queue.
  const jobDefinitions: JobDefinition[] = [platformsModule, system, operatorsModule, accountsModule, mailModule, connectionsModule].flatMap((m) => m.jobs);

  app.decorate('services', { tasks, catalog, accounts, mail, jobDefinitions });
  return app;
}
