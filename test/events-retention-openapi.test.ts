import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/modules/events/contract.js';
import { createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { eventsUntil } from './helpers/events.js';

describe('events: retention and the OpenAPI webhooks section', () => {
  let t: TestApp;
  let apiKey: string;
  beforeAll(async () => {
    t = await createTestApp({ events: { retentionDays: 30 } });
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  it('the hourly job deletes events older than the retention period and keeps the rest', async () => {
    const job = t.app.services.jobDefinitions.find((j) => j.name === 'events.prune')!;
    expect(job.cron).toMatch(/^\d+ \* \* \* \*$/);
    await signupWithToken(t.app, apiKey, { business_name: 'Old Inc' });
    const old = await eventsUntil(t.app, apiKey, (e) => e.length > 0);
    const { entityId } = await signupWithToken(t.app, apiKey, { business_name: 'New Inc' });
    const all = await eventsUntil(t.app, apiKey, (e) => e.some((x) => x.legal_entity_id === entityId));
    // Back-date the first entity's events past the period (31 days), and one just inside it (29 days).
    const ids = old.map((e) => e.id);
    await sql`update events set created_at = now() - interval '31 days' where id = any(${ids.slice(1)}::text[])`.execute(t.db);
    await sql`update events set created_at = now() - interval '29 days' where id = ${ids[0]!}`.execute(t.db);
    expect(await job.handler({})).toEqual({ deleted: ids.length - 1 });
    const left = await eventsUntil(t.app, apiKey, () => true);
    expect(left.map((e) => e.id)).toEqual(all.filter((e) => !ids.slice(1).includes(e.id)).map((e) => e.id));
    expect(await job.handler({})).toEqual({ deleted: 0 });
  });

  it('lists every event type under `webhooks`, with the signature headers and payloads whose refs resolve', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const resolve = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
    for (const type of EVENT_TYPES) {
      const operation = doc.webhooks[type].post;
      expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
      ]);
      const envelope = operation.requestBody.content['application/json'].schema;
      expect(envelope.required).toEqual(['id', 'type', 'created_at', 'legal_entity_id', 'data']);
      expect(envelope.properties.type.const).toBe(type);
      const ref = envelope.properties.data.properties.object.$ref as string;
      const payload = resolve(ref);
      expect(payload?.type, `${type} → ${ref}`).toBe('object');
      expect(Object.keys(payload.properties).length).toBeGreaterThan(0);
    }
    // The task events carry the v2 task as GET /v2/tasks/{id} answers it; a login never carries its secrets.
    const taskRef = doc.webhooks['task.created'].post.requestBody.content['application/json'].schema.properties.data.properties.object.$ref;
    expect(resolve(taskRef).title).toBe(doc.paths['/v2/tasks/{task_id}'].get.responses['200'].content['application/json'].schema.title);
    const loginRef =
      doc.webhooks['login.created'].post.requestBody.content['application/json'].schema.properties.data.properties.object.$ref;
    expect(JSON.stringify(resolve(loginRef))).not.toMatch(/password|secret|totp/i);
    expect(doc.paths['/v2/events'].get.security).toEqual([{ apiKey: [] }]);
  });
});
