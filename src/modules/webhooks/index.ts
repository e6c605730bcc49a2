import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { AuditService } from '../audit/contract.js';
import type { OperatorHook } from '../operators/contract.js';
import { createDestinationGuard } from './destination-guard.js';
import { createEndpointsForDelivery } from './endpoints-for-delivery.js';
import { createWebhookEndpointsService } from './webhook-endpoints.service.js';
import type { SecretSealer } from './webhook-secrets.js';
import { webhookOperatorRoutes } from './webhooks-operator.routes.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import { webhookEndpointRoutes } from './webhooks.routes.js';

export { createDestinationGuard, DestinationRefusedError, forbiddenAddressReason } from './destination-guard.js';
export type { DeliveryTarget, DestinationGuard, EndpointsForDelivery } from './contract.js';
export type { WebhookEndpointsService } from './webhook-endpoints.service.js';
export { toEndpointView, toOperatorEndpointView } from './webhooks.schemas.js';

export interface WebhooksModuleDeps {
  db: Db;
  vault: SecretSealer;
  settings: Pick<Config['webhooks'], 'allowPrivate' | 'disableAfterHours' | 'disableAfterFailures'>;
  /** Production refuses plain-http endpoint URLs. */
  production: boolean;
  now?: () => Date;
}

/** Webhook endpoints: management, signing secrets, the destination guard; what deliveries read of them (docs/webhooks.md). */
export function createWebhooksModule(deps: WebhooksModuleDeps) {
  const destinationGuard = createDestinationGuard({ allowPrivate: deps.settings.allowPrivate });
  const endpointsForDelivery = createEndpointsForDelivery({
    db: deps.db,
    vault: deps.vault,
    settings: deps.settings,
    repositoryFor: createWebhooksRepository,
  });
  const endpoints = createWebhookEndpointsService({
    db: deps.db,
    vault: deps.vault,
    repositoryFor: createWebhooksRepository,
    now: deps.now ?? (() => new Date()),
    urlRules: { guard: destinationGuard, requireHttps: deps.production },
  });
  return {
    endpoints,
    destinationGuard,
    endpointsForDelivery,
    jobs: [] as JobDefinition[],
    /** /v2/webhook_endpoints… (API key) and /operator/v1/webhook_endpoints… */
    routes(http: { auth: AuthHooks; operatorAuth: OperatorHook; audit: Pick<AuditService, 'record'> }): FastifyPluginAsync {
      return async (app) => {
        await app.register(webhookEndpointRoutes({ endpoints, auth: http.auth }));
        await app.register(webhookOperatorRoutes({ endpoints, operatorAuth: http.operatorAuth, audit: http.audit }));
      };
    },
  };
}

export type WebhooksModule = ReturnType<typeof createWebhooksModule>;
