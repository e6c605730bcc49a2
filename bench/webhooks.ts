/**
 * The webhooks step (i), on the run's Statehouse (which allows private webhook destinations,
 * STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE=1, so it may deliver to the receiver on 127.0.0.1):
 *   (a) the write PUT /v2/regions/CA, each load connection with its own entity alternating two employee counts
 *       (every request changes the location and re-plans), measured with no webhook endpoint (i0), then with an
 *       enabled endpoint subscribed to every event type pointing at the receiver in this process (i1), same load;
 *       then the bench waits for every event i1 produced to be delivered (the backlog's drain time is reported);
 *   (b) delivery throughput (bench/webhooks-delivery.ts): WEBHOOK_EVENTS events from real writes, every delivery
 *       verified with standardwebhooks.
 * Fails when a write is not answered 200, an event is not delivered, or a delivery does not verify.
 */
import { createDb } from '../src/db/database.js';
import type { Child } from './children.js';
import { measure, type Measurement, type Target } from './load.js';
import { checkpoint } from './run-state.js';
import { CONNECTIONS, say, WEBHOOK_EVENTS, WEBHOOKS_GOAL } from './settings.js';
import type { StatehouseInfo } from './setup.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import { measureDeliveries, type DeliveryReport } from './webhooks-delivery.js';
import { awaitDelivered, outboxMarker } from './webhooks-outbox.js';
import {
  createEndpoint,
  seedWebhookEntities,
  writeBody,
  writePath,
  WRITE_COUNTS,
  WRITE_REGION,
  type WriterEntity,
} from './webhooks-seed.js';

export interface WebhooksReport {
  entities: number;
  seedSeconds: number;
  write: {
    withoutEndpoint: Measurement;
    withEndpoint: Measurement;
    /** i1 / i0 requests/s. */
    ratio: number;
    goal: { minWriteRatio: number; met: boolean };
    /** The events i1's writes produced, and how long after its load the last of them was delivered. */
    events: number;
    undelivered: number;
    drainSeconds: number;
  };
  delivery: DeliveryReport | null;
  receiver: { requests: number; badSignatures: number; duplicates: number; lastError: string | null };
  /** The same run's bare-pg floor (b), for the CPU per event. */
  floor: { serverMicrosPerRequest: number | null; databaseMicrosPerRequest: number | null } | null;
  failures: string[];
}

/** One connection, one entity: each autocannon client sends its entity's write, the two employee counts in turn. */
function writeTarget(key: 'i0' | 'i1', statehouse: Child<Record<string, unknown>>, baseUrl: string, entities: WriterEntity[]): Target {
  let next = 0;
  return {
    key,
    name: key === 'i0' ? `PUT ${writePath()}` : `PUT ${writePath()} +webhook`,
    server: statehouse,
    url: `${baseUrl}${writePath()}`,
    method: 'PUT',
    sampleRss: false,
    responseBytes: writeBody(0).length,
    setupClient: (client) => {
      const { authorization } = entities[next++ % entities.length]!;
      const headers = { authorization, 'content-type': 'application/json' };
      client.setRequests(WRITE_COUNTS.map((_, i) => ({ method: 'PUT', path: writePath(), headers, body: writeBody(i) })));
    },
    description:
      key === 'i0'
        ? `Statehouse: PUT ${writePath()} (employee counts ${WRITE_COUNTS.join('/')} in turn, one entity per connection: location change + re-plan + events), no webhook endpoint`
        : `the same with an enabled webhook endpoint subscribed to every event type (deliveries to a local receiver answering 204)`,
  };
}

const problems = (m: Measurement) =>
  m.requests === 0 || m.non2xx > 0 || m.errors > 0
    ? [`${m.key} ${m.name}: ${m.requests} requests, ${m.non2xx} non-2xx, ${m.errors} errors ${JSON.stringify(m.statusCodes)}`]
    : [];

export async function runWebhooks(
  statehouse: Child<Record<string, unknown>>,
  sh: StatehouseInfo,
  floor: Measurement | null,
): Promise<WebhooksReport> {
  const db = createDb(sh.connectionString, 2);
  const receiver = await startWebhookReceiver();
  try {
    say(`webhooks: signing up ${CONNECTIONS} entities with ${WRITE_REGION} employees (untimed)`);
    const s0 = Date.now();
    const { platformId, apiKey, entities } = await seedWebhookEntities(db, sh.url, CONNECTIONS);
    const seedSeconds = (Date.now() - s0) / 1000;
    checkpoint();

    const withoutEndpoint = await measure(writeTarget('i0', statehouse, sh.url, entities), null);
    const endpoint = await createEndpoint(sh.url, apiKey, receiver.url);
    receiver.setSecret(endpoint.secret);
    say(`webhooks: endpoint ${endpoint.id} → ${receiver.url}`);
    const marker = await outboxMarker(db);
    const withEndpoint = await measure(writeTarget('i1', statehouse, sh.url, entities), null);
    const loadEnd = Date.now();
    say("webhooks: waiting for the deliveries of i1's events");
    const drained = await awaitDelivered(db, platformId, marker, receiver);
    const drainSeconds = (Date.now() - loadEnd) / 1000;
    const ratio = withEndpoint.requestsPerSecond / withoutEndpoint.requestsPerSecond;
    checkpoint();

    const delivery = WEBHOOK_EVENTS > 0 ? await measureDeliveries(db, statehouse, sh.url, platformId, entities, receiver) : null;

    const failures = [...problems(withoutEndpoint), ...problems(withEndpoint)];
    if (drained.missing.length > 0) failures.push(`i1: ${drained.missing.length} of ${drained.events.length} events never delivered`);
    if (delivery && delivery.missing > 0) failures.push(`i (b): ${delivery.missing} of ${delivery.events} events never delivered`);
    if (delivery && Object.keys(delivery.non200).length > 0)
      failures.push(`i (b): writes not answered 200: ${JSON.stringify(delivery.non200)}`);
    if (receiver.counts.badSignatures > 0)
      failures.push(`i: ${receiver.counts.badSignatures} deliveries failed standardwebhooks verification (last: ${receiver.lastError})`);
    return {
      entities: entities.length,
      seedSeconds,
      write: {
        withoutEndpoint,
        withEndpoint,
        ratio,
        goal: { ...WEBHOOKS_GOAL, met: ratio >= WEBHOOKS_GOAL.minWriteRatio },
        events: drained.events.length,
        undelivered: drained.missing.length,
        drainSeconds,
      },
      delivery,
      receiver: { ...receiver.counts, lastError: receiver.lastError },
      floor: floor && {
        serverMicrosPerRequest: floor.cpuMicrosPerRequest.server,
        databaseMicrosPerRequest: floor.cpuMicrosPerRequest.database,
      },
      failures,
    };
  } finally {
    await receiver.close();
    await db.destroy();
  }
}
