// What the built application exposes beside its routes (app.services), for the background jobs and the operator
// commands that run in the same process. A type augmentation only: buildApp (app.ts) decorates it.
import type { Catalog } from './catalog/catalog.js';
import type { JobDefinition } from './jobs/queue.js';
import type { AccountsService } from './modules/accounts/contract.js';
import type { AutomationsModule } from './modules/automations/index.js';
import type { MailService } from './modules/mail/contract.js';
import type { PlanningModule } from './modules/planning/index.js';
import type { TasksService } from './modules/tasks/index.js';
import type { WebhookDeliveriesModule } from './modules/webhook-deliveries/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Domain services, for the background jobs and operator commands that run beside the HTTP API. */
    services: {
      tasks: TasksService;
      catalog: Catalog;
      accounts: AccountsService;
      mail: MailService;
      /** Re-planning and the roll-forward (statehouse tasks roll-forward runs it now). */
      planning: PlanningModule;
      /** Automations: the owner's and the operator's operations, and `runStep` (one step now). */
      automations: Pick<AutomationsModule, 'automations' | 'runStep'>;
      /** Background jobs of the domain services, run by the server's job queue. */
      jobDefinitions: JobDefinition[];
      /** The outbox's fan-out to webhook endpoints: a process running the job queue runs its loop too (src/server.ts). */
      webhookDeliveries: Pick<WebhookDeliveriesModule, 'fanOut' | 'startFanOut'>;
    };
  }
}
