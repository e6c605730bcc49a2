/**
 * The webhooks step's delivery throughput (b): WEBHOOK_WRITERS clients, one entity each, send the step's write
 * (PUT /v2/regions/CA, alternating employee counts) one after another over keep-alive connections until the outbox
 * holds WEBHOOK_EVENTS events of the platform; then the bench waits for the receiver to have a verified delivery
 * of every one. Commit → delivery per event: the client's arrival time of the response of the write that made the
 * event (the write of its entity whose request was sent last before the event's transaction started) to the
 * receiver's arrival time of its first verified delivery. CPU of the server and of PostgreSQL over the whole phase.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Db } from '../src/db/database.js';
import type { Child } from './children.js';
import { readMachineCpu, readProcessCpuSeconds, readProcessTreeCpuSeconds, treeCpuDelta } from './proc.js';
import { state } from './run-state.js';
import { say, WEBHOOK_EVENTS, WEBHOOK_WRITERS } from './settings.js';
import type { WebhookReceiver } from './webhook-receiver.js';
import { awaitDelivered, countEventsAfter, outboxMarker, type OutboxEvent } from './webhooks-outbox.js';
import { writeBody, writePath, type WriterEntity } from './webhooks-seed.js';

const COUNT_POLL_MS = 200;

interface Write {
  /** Wall clock (ms since the epoch, sub-ms) when the request was sent and when its response arrived. */
  sentMs: number;
  respondedMs: number;
}

export interface DeliveryReport {
  events: number;
  /** Events by type (what the writes produced). */
  types: Record<string, number>;
  writes: number;
  writers: number;
  non200: Record<string, number>;
  /** First write sent → last write answered; first write sent → last event delivered. */
  produceSeconds: number;
  seconds: number;
  /** Last write answered → last event delivered: the backlog the deliveries still had when the writes stopped. */
  drainSeconds: number;
  eventsPerSecondProduced: number;
  eventsPerSecondDelivered: number;
  delivered: number;
  missing: number;
  /** Commit (the write's response at the client) → first verified arrival, per event. */
  latencyMs: { p50: number; p90: number; p99: number; max: number; min: number };
  cpu: {
    serverSeconds: number | null;
    databaseSeconds: number | null;
    serverMicrosPerEvent: number | null;
    databaseMicrosPerEvent: number | null;
    percent: { server: number | null; database: number | null; other: number };
  };
}

const wallNow = () => performance.timeOrigin + performance.now();
const percentile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]! : NaN;

async function writeUntil(baseUrl: string, entity: WriterEntity, stop: { done: boolean }, writes: Write[], non200: Record<string, number>) {
  for (let i = 0; !stop.done; i++) {
    const sentMs = wallNow();
    const res = await fetch(`${baseUrl}${writePath()}`, {
      method: 'PUT',
      headers: { authorization: entity.authorization, 'content-type': 'application/json' },
      body: writeBody(i),
    });
    await res.arrayBuffer();
    const respondedMs = wallNow();
    if (res.status === 200) writes.push({ sentMs, respondedMs });
    else non200[res.status] = (non200[res.status] ?? 0) + 1;
  }
}

/** The write an event came from: its entity's last write sent before the event's transaction started. */
function commitTimeOf(event: OutboxEvent, writesByEntity: Map<string, Write[]>): number | null {
  const writes = event.legalEntityId ? writesByEntity.get(event.legalEntityId) : undefined;
  if (!writes) return null;
  let found: Write | null = null;
  for (const w of writes) {
    if (w.sentMs > event.createdMs) break;
    found = w;
  }
  return found?.respondedMs ?? null;
}

export async function measureDeliveries(
  db: Db,
  statehouse: Child<Record<string, unknown>>,
  baseUrl: string,
  platformId: string,
  entities: WriterEntity[],
  receiver: WebhookReceiver,
): Promise<DeliveryReport> {
  const writers = entities.slice(0, WEBHOOK_WRITERS);
  const marker = await outboxMarker(db);
  say(`webhooks (b): ${writers.length} writers until the outbox has ${WEBHOOK_EVENTS} more events, then waiting for every delivery`);
  const server0 = readProcessCpuSeconds(statehouse.pid);
  const db0 = state.postmasterPid ? readProcessTreeCpuSeconds(state.postmasterPid) : null;
  const machine0 = readMachineCpu();
  const client0 = process.cpuUsage();
  const t0 = wallNow();
  const stop = { done: false };
  const writesByEntity = new Map(writers.map((e) => [e.legalEntityId, [] as Write[]]));
  const non200: Record<string, number> = {};
  const counting = (async () => {
    while (!stop.done) {
      if ((await countEventsAfter(db, platformId, marker)) >= WEBHOOK_EVENTS || Object.keys(non200).length > 0) stop.done = true;
      else await new Promise((resolve) => setTimeout(resolve, COUNT_POLL_MS));
    }
  })();
  await Promise.all([counting, ...writers.map((e) => writeUntil(baseUrl, e, stop, writesByEntity.get(e.legalEntityId)!, non200))]);
  const producedAt = wallNow();
  const { events, missing } = await awaitDelivered(db, platformId, marker, receiver);
  const server1 = readProcessCpuSeconds(statehouse.pid);
  const db1 = state.postmasterPid ? readProcessTreeCpuSeconds(state.postmasterPid) : null;
  const machine1 = readMachineCpu();
  const client = process.cpuUsage(client0);

  // Arrival times are performance.now() of this process; the writes' times are wall clock on the same timeline.
  const arrivalMs = (id: string) => performance.timeOrigin + receiver.arrivals.get(id)!;
  const delivered = events.filter((e) => receiver.arrivals.has(e.id));
  const lastArrival = delivered.length ? Math.max(...delivered.map((e) => arrivalMs(e.id))) : NaN;
  const latencies = delivered
    .flatMap((e) => {
      const committed = commitTimeOf(e, writesByEntity);
      return committed === null ? [] : [arrivalMs(e.id) - committed];
    })
    .sort((a, b) => a - b);
  const writes = [...writesByEntity.values()].reduce((s, w) => s + w.length, 0);
  const lastResponse = Math.max(...[...writesByEntity.values()].flat().map((w) => w.respondedMs));
  const windowSeconds = (Math.max(lastArrival || 0, producedAt) - t0) / 1000;
  const serverSeconds = server0 !== null && server1 !== null ? server1 - server0 : null;
  const databaseSeconds = db0 && db1 ? treeCpuDelta(db0, db1) : null;
  const per = (cpu: number | null) => (cpu === null || delivered.length === 0 ? null : (cpu * 1e6) / delivered.length);
  const pct = (cpu: number | null) => (cpu === null ? null : (100 * cpu) / windowSeconds);
  const machineTotal = machine1.totalSeconds - machine0.totalSeconds;
  const machine = machineTotal > 0 ? (100 * os.cpus().length * (machine1.busySeconds - machine0.busySeconds)) / machineTotal : NaN;
  const bench = (100 * (client.user + client.system)) / 1e6 / windowSeconds;
  const types: Record<string, number> = {};
  for (const e of events) types[e.type] = (types[e.type] ?? 0) + 1;
  return {
    events: events.length,
    types,
    writes,
    writers: writers.length,
    non200,
    produceSeconds: (lastResponse - t0) / 1000,
    seconds: (lastArrival - t0) / 1000,
    drainSeconds: (lastArrival - lastResponse) / 1000,
    eventsPerSecondProduced: events.length / ((lastResponse - t0) / 1000),
    eventsPerSecondDelivered: delivered.length / ((lastArrival - t0) / 1000),
    delivered: delivered.length,
    missing: missing.length,
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p90: percentile(latencies, 0.9),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1) ?? NaN,
      min: latencies[0] ?? NaN,
    },
    cpu: {
      serverSeconds,
      databaseSeconds,
      serverMicrosPerEvent: per(serverSeconds),
      databaseMicrosPerEvent: per(databaseSeconds),
      percent: {
        server: pct(serverSeconds),
        database: pct(databaseSeconds),
        other: Math.max(0, machine - (pct(serverSeconds) ?? 0) - (pct(databaseSeconds) ?? 0) - bench),
      },
    },
  };
}
