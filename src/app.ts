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
import { registerOperatorAuth } from './modules/operators/operator-auth.js';
import { createOperatorsService } from './modules/operators/operators.service.js';
import { operatorRoutes } from './modules/operators/operator.routes.js';
import { noJobQueue, type JobDefinition, type JobSender } from './jobs/queue.js';
import { validateRequest } from './http/request-validation.js';
import { REQUEST_ID_HEADER, requestIdFor, setRequestIdHeader } from './http/request-id.js';
import { registerMetrics } from './modules/metrics/metrics.plugin.js';
import { createAuthModule } from './modules/auth/index.js';
import { accountRoutes } from './modules/accounts/accounts.routes.js';
import { loginRevealRoutes } from './modules/accounts/login-reveal.routes.js';
import { registerMail } from './modules/mail/mail.module.js';
import type { MailService } from './modules/mail/mail.service.js';
import { accountsPageRoutes } from './modules/accounts/accounts-pages.routes.js';
import { createAccountsService, type AccountsService } from './modules/accounts/accounts.service.js';
import { connectPageRoutes } from './modules/connections/connect-pages.routes.js';
import { connectionRoutes } from './modules/connections/connections.routes.js';
import { createConnectionsService } from './modules/connections/connections.service.js';
import { createSandboxConnector } from './modules/connections/sandbox-connector.js';
import { createVault, loadVaultKeys } from './modules/accounts/vault.js';
import { HOSTED_SESSION_PATH, createHostedSessionsService } from './modules/hosted-sessions/hosted-sessions.service.js';
import { hostedRoutes } from './modules/hosted/hosted.routes.js';
import { hostedPageErrors } from './modules/hosted-sessions/hosted-http.js';
import { signupPageRoutes } from './modules/hosted/signup-pages.routes.js';
import { automationPageRoutes } from './modules/hosted/automation-pages.routes.js';
import { payrollRoutes } from './modules/hosted/payroll-pages.routes.js';
import { taskPageRoutes } from './modules/hosted/task-pages.routes.js';
import { createCallbackOrigins } from './modules/platforms/callback-origins.js';
import { createInstanceKeys, INSTANCE_KEY } from './modules/system/instance-keys.js';
import { createLegalEntitiesModule } from './modules/legal-entities/index.js';
import { createLocationsModule } from './modules/locations/index.js';
import { createPlanningModule, type PlanningModule } from './modules/planning/index.js';
import { createPlatformsRepository } from './modules/platforms/platforms.repository.js';
import { createPlatformsService } from './modules/platforms/platforms.service.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { loadCatalog, type Catalog } from './catalog/catalog.js';
import { createTasksModule, type TasksService } from './modules/tasks/index.js';
import { logDestination, RequestLogController } from './http/logging.js';
import { lazySerializerFactory } from './http/lazy-serializers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Domain services, for the background jobs and operator commands that run beside the HTTP API. */
    services: {
      tasks: TasksService; catalog: Catalog; accounts: AccountsService; mail: MailService;
      /** Re-planning and the roll-forward (statehouse tasks roll-forward runs it now). */
      planning: PlanningModule;
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
  const platforms = createPlatformsService(createPlatformsRepository(db));
  // Instance keys are sealed with the vault key, so the vault's keys are read at build (a wrong key stops the start).
  const vault = createVault(deps.vaultKeys ?? (() => loadVaultKeys(config)));
  const instanceKeys = createInstanceKeys(db, vault);
  const previousTokenKey = await instanceKeys.previous(INSTANCE_KEY.accessTokens);
  const tokenKeys = [await instanceKeys.get(INSTANCE_KEY.accessTokens), ...(previousTokenKey ? [previousTokenKey] : [])];
  await Promise.all([instanceKeys.get(INSTANCE_KEY.csrf), instanceKeys.get(INSTANCE_KEY.fileLinks)]);
  const authModule = createAuthModule({ signingKeys: tokenKeys, ttlSeconds: config.accessTokenTtlSeconds, now: deps.now });
  const auth = registerAuth(app, platforms, authModule.tokens);
  const sessions = createHostedSessionsService(db, config.publicBaseUrl, deps.now && (() => new Date(deps.now!())), () => instanceKeys.get(INSTANCE_KEY.csrf));
  const catalog = deps.catalog ?? loadCatalog();
  const now = () => new Date(deps.now ? deps.now() : Date.now());
  const callbackOrigins = createCallbackOrigins(db, { requireRegistered: config.environment === 'production' });
  // Every change of an entity's facts re-plans its tasks in its own transaction: tasks → locations → planning, legal-entities → planning.
  const planningModule = createPlanningModule({ db, catalog, now });
  const { planning } = planningModule;
  const legalEntities = createLegalEntitiesModule({ db, sessions, signupTtlSeconds: config.signupSessionTtlSeconds, planning, callbackOrigins });
  const { signup } = legalEntities;
  const locationsModule = createLocationsModule({ db, planning });
  const tasksModule = createTasksModule({ db, catalog, now, planning, locations: locationsModule.locations });
  const { tasks, automation } = tasksModule;
  const operatorAuth = registerOperatorAuth(app, createOperatorsService(db));
  const accounts = createAccountsService({ db, catalog, vault });

  // Cheap refusal before any route's own work; registered after the synchronous setup above (catalog) so
  // that start-up is not mistaken for an overloaded event loop.
  await registerLoadShedding(app, config.loadShedding);
  await registerRateLimits(app, config.rateLimits);

  await app.register(systemRoutes({ db }));
  await app.register(legalEntities.routes({ auth }));
  await app.register(authModule.routes({ auth, signup }));
  await app.register(locationsModule.routes({ auth }));
  await app.register(accountRoutes({ accounts, auth }));
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  app.decorateRequest('hosted', null);
  // Secure cookies whenever links are https, and always in production (behind a TLS-terminating proxy too).
  await app.register(hostedRoutes({ sessions, secureCookies: publicOrigin.startsWith('https:') || config.environment === 'production' }));
  await app.register(signupPageRoutes({ db, sessions, signup, publicOrigin }));
  await app.register(tasksModule.routes({ auth, sessions, callbackOrigins, ttlSeconds: config.hostedSessionTtlSeconds }));
  await app.register(taskPageRoutes({ db, sessions, tasks, catalog, publicOrigin }));
  await app.register(automationPageRoutes({ db, sessions, automation, publicOrigin }));
  await app.register(loginRevealRoutes({ db, sessions, accounts, callbackOrigins, auth, ttlSeconds: config.hostedSessionTtlSeconds, publicOrigin, now }));
  await app.register(payrollRoutes({ db, sessions, signup, callbackOrigins, auth, ttlSeconds: config.hostedSessionTtlSeconds, publicOrigin }));
  // Background jobs: those of the module factories above, then each section below pushes its own; src/server.ts runs them.
  const jobDefinitions: JobDefinition[] = [...planningModule.jobs, ...legalEntities.jobs, ...authModule.jobs, ...locationsModule.jobs, ...tasksModule.jobs];
  // --- mail (GET /mail, /locations/{id}/mail, /v2/mail, /v2/documents/manage/session, signed file links) ---
  const mail = await registerMail(app, { config, db, now, auth, sessions, callbackOrigins, operatorAuth, publicOrigin, instanceKeys });
  // Daily: files a crash left without their mail row (see docs/mail.md); `statehouse mail gc` runs it now.
  jobDefinitions.push({ name: 'mail.gc', cron: '45 4 * * *', handler: () => mail.collectGarbage(), logRuns: true });

  // --- connections (POST /accounts/connect, GET and cancel /accounts/connections/{id}, hosted connect page, connector jobs) ---
  const connections = createConnectionsService({
    db, accounts, sessions, jobs, catalog, connector: createSandboxConnector(), stepMs: config.sandboxConnectorStepMs,
    hostedSessionTtlSeconds: config.hostedSessionTtlSeconds, now,
  });
  jobDefinitions.push(...connections.jobDefinitions());
  await app.register(connectionRoutes({ connections, auth }));
  await app.register(connectPageRoutes({ db, sessions, connections, publicOrigin }));

  // --- accounts management page (POST /v2/accounts/manage/session) ---
  await app.register(accountsPageRoutes({ db, sessions, accounts, callbackOrigins, auth, ttlSeconds: config.hostedSessionTtlSeconds, publicOrigin }));

  // --- operator API ---
  await app.register(operatorRoutes({ db, accounts, connections, catalog, operatorAuth }));

  app.decorate('services', { tasks, catalog, accounts, mail, planning: planningModule, jobDefinitions });
  return app;
}
