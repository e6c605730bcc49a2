import type { Db } from '../../db/database.js';
import type { JobSender } from '../../jobs/queue.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { EventFeed } from '../events/contract.js';
import { WEBHOOK_TEST_EVENT_ID_PREFIX, WEBHOOK_TEST_EVENT_TYPE, type EndpointsForDelivery } from '../webhooks/contract.js';
import {
  createWebhookDeliveriesRepository,
  type AttemptRow,
  type DeliveryRecord,
  type DeliveryRow,
  type WebhookDeliveriesRepository,
} from './webhook-deliveries.repository.js';
import { DELIVER_JOB, type DeliveryStatus } from './webhook-deliveries.types.js';

export interface DeliveriesPage {
  items: DeliveryRow[];
  /** The last item's id when another page follows (its `starting_after`). */
  nextStartingAfter: string | null;
}

export interface WebhookDeliveriesServiceDeps {
  db: Db;
  jobs: JobSender;
  /** The platform's endpoints (webhooks module). */
  endpoints: Pick<EndpointsForDelivery, 'find' | 'target'>;
  /** Each delivery's event type (events module). */
  events: Pick<EventFeed, 'typesOf'>;
  /** The queries over a database or transaction (a fake in unit tests). */
  repositoryFor?: (db: Db) => WebhookDeliveriesRepository;
  now: () => Date;
}

/** What a platform reads and asks of its endpoints' deliveries (GET …/deliveries, POST …/redeliver). */
export function createWebhookDeliveriesService(deps: WebhookDeliveriesServiceDeps) {
  const repositoryFor = deps.repositoryFor ?? createWebhookDeliveriesRepository;

  const endpointOf = async (db: Db, platformId: string, endpointId: string) => {
    const endpoint = await deps.endpoints.find(db, platformId, endpointId);
    if (!endpoint) throw new NotFoundError(`Webhook endpoint '${endpointId}' not found`);
    return endpoint;
  };
  /** The deliveries with their events' types; one whose event the retention deleted is gone with it (a test event is its own). */
  const withEventTypes = async (db: Db, platformId: string, records: DeliveryRecord[]): Promise<DeliveryRow[]> => {
    const logged = records.filter((r) => r.test_event_type === null).map((r) => r.event_id);
    const types = logged.length > 0 ? await deps.events.typesOf(db, platformId, [...new Set(logged)]) : new Map<string, string>();
    return records.flatMap(({ test_event_type, ...r }) => {
      const type = test_event_type ?? types.get(r.event_id);
      return type === undefined ? [] : [{ ...r, event_type: type }];
    });
  };
  const deliveryOf = async (db: Db, platformId: string, endpointId: string, deliveryId: string, lock = false) => {
    const record = await repositoryFor(db).delivery(endpointId, deliveryId, { lock });
    const [delivery] = record ? await withEventTypes(db, platformId, [record]) : [];
    if (!delivery) throw new NotFoundError(`Webhook delivery '${deliveryId}' not found`);
    return delivery;
  };

  const sendTest = (platformId: string, endpointId: string) =>
    deps.db.transaction().execute(async (trx): Promise<DeliveryRow> => {
      const endpoint = await endpointOf(trx, platformId, endpointId);
      const target = endpoint.status === 'enabled' ? await deps.endpoints.target(trx, endpointId) : null;
      if (!target) throw new ConflictError('The webhook endpoint is disabled: enable it before sending a test event');
      const event = {
        id: newId(WEBHOOK_TEST_EVENT_ID_PREFIX),
        type: WEBHOOK_TEST_EVENT_TYPE,
        created_at: deps.now().toISOString(),
        legal_entity_id: null,
        data: { object: { id: target.id, url: target.url } },
      };
      const { test_event_type, ...record } = await repositoryFor(trx).insertTestDelivery({ endpointId, platformId, event });
      await deps.jobs.send(DELIVER_JOB, { deliveryId: record.id, attempt: 1 }, { transaction: trx });
      return { ...record, event_type: test_event_type ?? WEBHOOK_TEST_EVENT_TYPE };
    });

  return {
    /**
     * Records a delivery of a `webhook_endpoint.test` event to this one endpoint and queues its first attempt (signed
     * and retried like any delivery). The event is not in the platform's log (GET /v2/events) and goes nowhere else.
     */
    sendTest,

    async list(
      platformId: string,
      endpointId: string,
      query: { status?: DeliveryStatus; startingAfter?: string; limit: number },
    ): Promise<DeliveriesPage> {
      const repository = repositoryFor(deps.db);
      await endpointOf(deps.db, platformId, endpointId);
      if (query.startingAfter && !(await repository.delivery(endpointId, query.startingAfter))) {
        throw new InvalidInputError(['starting_after'], 'not a delivery of this endpoint', query.startingAfter);
      }
      // One more than asked tells whether a next page exists.
      const records = await repository.listDeliveries(endpointId, {
        status: query.status,
        afterId: query.startingAfter,
        limit: query.limit + 1,
      });
      const found = await withEventTypes(deps.db, platformId, records);
      const items = found.slice(0, query.limit);
      return { items, nextStartingAfter: found.length > query.limit ? items.at(-1)!.id : null };
    },

    async get(platformId: string, endpointId: string, deliveryId: string): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
      await endpointOf(deps.db, platformId, endpointId);
      const delivery = await deliveryOf(deps.db, platformId, endpointId, deliveryId);
      return { delivery, attempts: await repositoryFor(deps.db).attemptsOf(deliveryId) };
    },

    /**
     * Queues a manual attempt now (trigger 'manual'), for a delivery that succeeded or failed for good; one still
     * being retried automatically, or an endpoint that is disabled, is a conflict.
     */
    async redeliver(platformId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow> {
      return deps.db.transaction().execute(async (trx) => {
        const endpoint = await endpointOf(trx, platformId, endpointId);
        if (endpoint.status !== 'enabled') throw new ConflictError('The webhook endpoint is disabled: enable it before redelivering');
        const delivery = await deliveryOf(trx, platformId, endpointId, deliveryId, true);
        if (delivery.status === 'pending') {
          throw new ConflictError(
            `The delivery is still being attempted${delivery.next_attempt_at ? ` (next attempt at ${delivery.next_attempt_at.toISOString()})` : ''}`,
          );
        }
        await deps.jobs.send(DELIVER_JOB, { deliveryId, manual: true }, { transaction: trx });
        return delivery;
      });
    },
  };
}

export type WebhookDeliveriesService = ReturnType<typeof createWebhookDeliveriesService>;
