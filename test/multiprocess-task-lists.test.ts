import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { createSecondApp, type SecondApp } from './helpers/second-app.js';

type Task = { id: string; status: string };

/** Two Statehouse processes on one database (docs/scaling.md, scenario 1): neither serves the other a stale list. */
describe('task lists across two processes', () => {
  let a: TestApp;
  let b: SecondApp;
  let token: string;
  let entityId: string;
  const list = async (app: TestApp['app'], url = '/v2/tasks') => json<Task[]>(await app.inject({ url, headers: bearer(token) }));

  beforeAll(async () => {
    a = await createTestApp();
    b = await createSecondApp(a);
    ({ token, entityId } = await createPlatformWithEntity(a));
    const located = await a.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    expect(located.statusCode).toBe(200);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a change made through one process is in the next list the other serves, though it had the list cached', async () => {
    const before = await list(b.app);
    expect(await list(b.app)).toEqual(before); // cached on B now
    const target = before.find((x) => x.status === 'todo')!;
    const patched = await a.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/${target.id}`,
      headers: bearer(token),
      payload: { status: 'done' },
    });
    expect(patched.statusCode).toBe(200);
    expect((await list(b.app)).find((x) => x.id === target.id)?.status).toBe('done');
    // And the unversioned list, cached separately.
    await a.app.inject({ method: 'PATCH', url: `/v2/tasks/${target.id}`, headers: bearer(token), payload: { status: 'todo' } });
    expect((await list(b.app, '/tasks')).find((x) => x.id === target.id)?.status).toBe('todo');
  });

  it('a change written by a process whose clock runs behind (no newer timestamp, same task count) is seen at once', async () => {
    const cached = await list(b.app);
    await list(b.app);
    const target = cached.find((x) => x.status === 'todo')!;
    // What a process with a slow clock writes: the status changes, every timestamp stays where it was.
    await sql`update tasks set status = 'in-progress', updated_at = (select max(updated_at) from tasks where legal_entity_id = ${entityId})
      where id = ${target.id}`.execute(a.db);
    expect((await list(b.app)).find((x) => x.id === target.id)?.status).toBe('in-progress');
  });

  it('the version is one counter per entity, bumped once per statement however many rows it writes', async () => {
    const version = async () =>
      (await sql<{ version: string }>`select version from task_list_versions where legal_entity_id = ${entityId}`.execute(a.db)).rows[0]!
        .version;
    const before = BigInt(await version());
    const { numUpdatedRows } = await a.db
      .updateTable('tasks')
      .set({ acted_at: new Date() })
      .where('legal_entity_id', '=', entityId)
      .executeTakeFirst();
    expect(numUpdatedRows).toBeGreaterThan(1n);
    expect(BigInt(await version())).toBe(before + 1n);
  });
});
