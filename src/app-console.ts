// The platform console's wiring (for app.ts): the module, and its view of the modules it acts on, each port from
// its owner's service.
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { AuditService } from './modules/audit/contract.js';
import { createConsoleModule, type ConsoleOperations } from './modules/console/index.js';
import type { EventLogReader } from './modules/events/contract.js';
import { API_BRAND_FIELDS, type CallbackOrigins, type PlatformBrandsService, type PlatformsService } from './modules/platforms/contract.js';
import { INSTANCE_KEY, type InstanceKeys } from './modules/system/contract.js';
import type { RequestLogsService } from './modules/request-logs/contract.js';
import type { WebhookEndpointsAdmin, WebhookTestEvents } from './modules/webhooks/contract.js';

export interface ConsoleWiring {
  config: Config;
  db: Db;
  now: () => Date;
  instanceKeys: Pick<InstanceKeys, 'get'>;
  audit: AuditService;
  publicOrigin: string;
  secureCookies: boolean;
  platforms: PlatformsService;
  callbackOrigins: CallbackOrigins;
  brands: PlatformBrandsService;
  endpoints: WebhookEndpointsAdmin;
  testEvents: WebhookTestEvents;
  requestLogs: RequestLogsService;
  events: EventLogReader;
}

export function consoleOperationsOf(m: ConsoleWiring): ConsoleOperations {
  return {
    platformName: async (id) => (await m.platforms.find(id))?.name ?? id,
    keys: { list: m.platforms.listKeys, create: m.platforms.rotateKey, revoke: m.platforms.revokePlatformKey },
    origins: m.callbackOrigins,
    brands: { get: (id) => m.brands.get(id), update: (id, update, onWritten) => m.brands.update(id, update, API_BRAND_FIELDS, onWritten) },
    endpoints: m.endpoints,
    testEvents: m.testEvents,
    requestLogs: m.requestLogs,
    events: m.events,
    audit: m.audit,
  };
}

/** The console's routes (/console…). */
export function consoleRoutes(m: ConsoleWiring) {
  const consoleModule = createConsoleModule({
    db: m.db,
    publicBaseUrl: m.config.publicBaseUrl,
    now: m.now,
    csrfKey: () => m.instanceKeys.get(INSTANCE_KEY.csrf),
    audit: m.audit,
    platformExists: async (id) => (await m.platforms.find(id)) !== undefined,
  });
  return consoleModule.routes({ publicOrigin: m.publicOrigin, secureCookies: m.secureCookies, operations: consoleOperationsOf(m) });
}
