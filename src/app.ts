import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createHttpApp } from './app-http.js';
import './app-services.js';
import { validateRequest } from './http/request-validation.js';
import type { Db } from './db/database.js';
import { registerAuth } from './http/auth.js';
import { registerOpenApi } from './http/openapi.js';
import { registerLoadShedding } from './http/load-shedding.js';
import { registerRateLimits } from './http/rate-limits.js';
import { createOperatorsModule, registerOperatorAuth } from './modules/operators/index.js';
import { createAuditModule } from './modules/audit/index.js';
import { noJobQueue, type JobDefinition, type JobSender } from './jobs/queue.js';
import { createMetricsModule } from './modules/metrics/index.js';
import { createAuthModule } from './modules/auth/index.js';
import { createAccountsModule } from './modules/accounts/index.js';
import { createAgencyWork } from './app-agency-work.js';
import { createVault, loadVaultKeys } from './crypto/vault.js';
import { createMailModule } from './modules/mail/index.js';
import { createHostedSessionsModule } from './modules/hosted-sessions/index.js';
import { createPayrollModule } from './modules/payroll/index.js';
import { INSTANCE_KEY } from './modules/system/contract.js';
import { createSystemModule } from './modules/system/index.js';
import { createLegalEntitiesModule, payrollConnectionStore, plannedEntityStore } from './modules/legal-entities/index.js';
import { createLocationsModule } from './modules/locations/index.js';
import { createPlanningModule } from './modules/planning/index.js';
import { createPlatformsModule } from './modules/platforms/index.js';
import { loadCatalog, type Catalog } from './catalog/catalog.js';
import { createCatalogReleasesModule } from './modules/catalog-releases/index.js';
import { createTaskEvents, plannedTaskStore, taskStatusStore, taskCompletionStore, createTasksModule } from './modules/tasks/index.js';
import { createEntityClock, createTestClocksModule } from './modules/test-clocks/index.js';
import { createEventsModule } from './modules/events/index.js';
import { EVENT_PAYLOAD_SCHEMAS } from './event-payloads.js';
import { createIdempotencyModule } from './modules/idempotency/index.js';
import { createRequestLogsModule } from './modules/request-logs/index.js';
import { createHandbookModule } from './modules/handbook/index.js';
import { createCalendarModule } from './modules/calendar/index.js';
import { createWebhooks } from './app-webhooks.js';
import { createImportsModule } from './modules/imports/index.js';
import { consoleRoutes } from './app-console.js';

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

/** Builds the HTTP application over a database; never listens (server.ts does). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = await createHttpApp(config, deps.logger);
  // Its response hook measures every route and the 404/405 handler; /metrics itself is served here.
  await createMetricsModule({ db, jobs: deps.jobs, token: config.metricsToken }).register(app);
  app.addHook('preHandler', validateRequest);
  // The outbox: modules record their changes' events in the change's transaction (docs/events.md).
  const now = () => new Date(deps.now ? deps.now() : Date.now());
  const eventsModule = createEventsModule({ db, now, retentionDays: config.events.retentionDays, payloads: EVENT_PAYLOAD_SCHEMAS });
  await registerOpenApi(app, eventsModule.openApi);

  const jobs = deps.jobs ?? noJobQueue;
  const platformsModule = createPlatformsModule({ db, requireRegisteredCallbacks: config.environment === 'production' });
  const { platforms, callbackOrigins } = platformsModule;
  // Instance keys are sealed with the vault key, so the vault's keys are read at build (a wrong key stops the start).
  const vault = createVault(deps.vaultKeys ?? (() => loadVaultKeys(config)));
  const system = createSystemModule({ db, vault });
  const { instanceKeys } = system;
  // Read side by side at build (a key that cannot be opened stops the start); each is a round trip or two.
  await Promise.all([
    instanceKeys.get(INSTANCE_KEY.accessTokens),
    instanceKeys.get(INSTANCE_KEY.csrf),
    instanceKeys.get(INSTANCE_KEY.fileLinks),
  ]);
  const authModule = createAuthModule({
    signingKeys: instanceKeys.verifying(INSTANCE_KEY.accessTokens),
    ttlSeconds: config.accessTokenTtlSeconds,
    now: deps.now,
    apiKeyActive: async (apiKeyId) => (await platforms.activeKey(apiKeyId)) ?? false,
  });
  const auth = registerAuth(app, platforms, authModule.tokens);
  const hostedSessions = createHostedSessionsModule({
    db,
    publicBaseUrl: config.publicBaseUrl,
    now: deps.now && (() => new Date(deps.now!())),
    csrfKey: () => instanceKeys.get(INSTANCE_KEY.csrf),
    callbackOrigins,
    linkTtlSeconds: config.hostedSessionTtlSeconds,
  });
  const { sessions } = hostedSessions;
  const catalog = deps.catalog ?? loadCatalog();
  // Every change of an entity's facts re-plans its tasks in its own transaction: tasks → locations → planning, legal-entities → planning.
  const catalogReleases = createCatalogReleasesModule({ catalog });
  const taskEvents = createTaskEvents({ catalog, publicBaseUrl: config.publicBaseUrl, events: eventsModule.events });
  // Each entity's "now": its test clock outside production (docs/test-clocks.md), read by planning and tasks.
  const entityClock = createEntityClock({ enabled: config.environment !== 'production' });
  const planningModule = createPlanningModule({
    db,
    catalog,
    now,
    taskEvents,
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
    jobs,
    clock: entityClock,
  });
  const { planning } = planningModule;
  const legalEntities = createLegalEntitiesModule({
    db,
    sessions,
    signupTtlSeconds: config.signupSessionTtlSeconds,
    planning,
    callbackOrigins,
    now,
  });
  const { signup } = legalEntities;
  const locationsModule = createLocationsModule({ db, planning });
  const importsModule = createImportsModule({ db, planning, signup, locations: locationsModule.locations, jobs });
  const payroll = createPayrollModule({
    db,
    sessions,
    entities: signup,
    connections: payrollConnectionStore,
    locations: locationsModule.locations,
    planning,
    events: eventsModule.events,
    now,
  });
  // The operator audit trail: below every module whose operator actions it records (automations, mail, webhooks, operators).
  const { audit } = createAuditModule({ db });
  // Webhook endpoints, their secrets and the destination guard; deliveries read them through `endpointsForDelivery`.
  const { webhooksModule, webhookDeliveries } = createWebhooks({ config, db, jobs, vault, feed: eventsModule.feed, now });
  const accountsModule = createAccountsModule({ db, catalog, vault, events: eventsModule.events });
  const { accounts } = accountsModule;
  const mailModule = createMailModule({ config, db, now, instanceKeys, events: eventsModule.events });
  // Account connections and filings, each through its agency's connector (or the sandbox's).
  const { connectionsModule, automationsModule } = createAgencyWork({
    config,
    sessions,
    db,
    catalog,
    now,
    planning,
    jobs,
    vault,
    accounts,
    mail: mailModule.mail,
    audit,
    events: eventsModule.events,
    taskEvents,
    taskStatus: taskStatusStore,
  });
  const calendarModule = createCalendarModule({ db, catalog, vault, publicBaseUrl: config.publicBaseUrl });
  const handbookModule = createHandbookModule({
    db,
    locations: locationsModule.locations,
    planning,
    events: eventsModule.events,
    tasks: taskCompletionStore,
    linkKey: () => instanceKeys.get(INSTANCE_KEY.fileLinks),
    publicBaseUrl: config.publicBaseUrl,
    fileUrlTtlSeconds: config.fileUrlTtlSeconds,
    now,
  });
  const operatorsModule = createOperatorsModule({
    db,
    publicBaseUrl: config.publicBaseUrl,
    now,
    csrfKey: () => instanceKeys.get(INSTANCE_KEY.csrf),
    audit,
    operations: {
      accounts,
      connections: connectionsModule.connections,
      automations: automationsModule.automations,
      catalog,
      planning,
      brands: platformsModule.brands,
      maxUploadBytes: config.mailMaxBytes,
    },
  });
  const operatorAuth = registerOperatorAuth(app, operatorsModule.operators);
  const tasksModule = createTasksModule({
    db,
    catalog,
    now,
    planning,
    locations: locationsModule.locations,
    automations: automationsModule.automations,
    mail: mailModule.mail,
    publicBaseUrl: config.publicBaseUrl,
    clock: entityClock,
  });
  const testClocks = createTestClocksModule({ db, enabled: config.environment !== 'production', now, entities: signup, planning });

  // Cheap refusal before any route's own work; registered after the synchronous setup above (catalog) so
  // that start-up is not mistaken for an overloaded event loop.
  await registerLoadShedding(app, config.loadShedding);
  await registerRateLimits(app, config.rateLimits, db);

  const publicOrigin = new URL(config.publicBaseUrl).origin;
  app.decorateRequest('hosted', null);
  // Idempotency-Key: its hooks mark the credentialed POST/PATCH routes as they are registered, so it comes first.
  const idempotencyModule = createIdempotencyModule({ db, vault, retentionHours: config.idempotency.retentionHours });
  await app.register(idempotencyModule.plugin({ credentialHooks: [auth.apiKey, auth.bearer, operatorAuth] }));
  // Every API request of a platform, recorded after its response (docs/request-logs.md): its hooks come before the routes.
  const requestLogs = createRequestLogsModule({ db, now, settings: config.requestLogs });
  await requestLogs.register(app);
  await app.register(system.routes());
  await app.register(legalEntities.routes({ auth, sessions, publicOrigin }));
  await app.register(authModule.routes({ auth, signup }));
  await app.register(eventsModule.routes({ auth, entities: signup }));
  await app.register(requestLogs.routes({ auth }));
  await app.register(catalogReleases.routes({ auth }));
  await app.register(locationsModule.routes({ auth }));
  await app.register(importsModule.routes({ auth }));
  // Secure cookies whenever links are https, and always in production (behind a TLS-terminating proxy too).
  const secureCookies = publicOrigin.startsWith('https:') || config.environment === 'production';
  await app.register(hostedSessions.routes({ secureCookies, publicOrigin }));
  await app.register(tasksModule.routes({ auth, sessions, publicOrigin, calendar: calendarModule.calendar }));
  await app.register(calendarModule.routes({ auth, sessions, publicOrigin }));
  await app.register(handbookModule.routes({ auth, sessions, publicOrigin }));
  await app.register(automationsModule.routes({ auth }));
  await app.register(payroll.routes({ auth, publicOrigin }));
  await app.register(mailModule.routes({ auth, sessions, operatorAuth, audit, publicOrigin }));
  await app.register(connectionsModule.routes({ auth, publicOrigin }));
  await app.register(webhookDeliveries.routes({ auth }));
  await app.register(accountsModule.routes({ auth, sessions, publicOrigin, now }));
  await app.register(webhooksModule.routes({ auth, operatorAuth, audit }));
  await app.register(testClocks.routes({ auth }));
  await app.register(operatorsModule.routes({ operatorAuth, publicOrigin, secureCookies }));
  // The platform console (/console): a platform's own users over its keys, webhooks, events, origins and branding.
  const consoleDeps = {
    platforms,
    callbackOrigins,
    brands: platformsModule.brands,
    endpoints: webhooksModule.endpoints,
    testEvents: webhookDeliveries.testEvents,
    requestLogs: requestLogs.logs,
    events: eventsModule.log,
  };
  await app.register(consoleRoutes({ config, db, now, instanceKeys, audit, publicOrigin, secureCookies, ...consoleDeps }));

  // The one job registry: every module's background jobs, run by src/server.ts's queue.
  const jobDefinitions: JobDefinition[] = [
    platformsModule,
    system,
    eventsModule,
    webhooksModule,
    webhookDeliveries,
    authModule,
    hostedSessions,
    planningModule,
    legalEntities,
    locationsModule,
    importsModule,
    tasksModule,
    calendarModule,
    handbookModule,
    payroll,
    operatorsModule,
    accountsModule,
    mailModule,
    connectionsModule,
    automationsModule,
    idempotencyModule,
    requestLogs,
  ].flatMap((m) => m.jobs);

  app.decorate('services', {
    tasks: tasksModule.tasks,
    catalog,
    accounts,
    mail: mailModule.mail,
    planning: planningModule,
    automations: automationsModule,
    jobDefinitions,
    webhookDeliveries,
  });
  return app;
}
