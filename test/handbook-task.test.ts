/**
 * The handbook task: one `employee-handbook` task (tag handbook, category hr) in each state with employees,
 * planned like every requirement; publishing a version that covers the state completes it (task.updated);
 * a new state with employees brings an open one; a state without employees any more retires it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { answerAllQuestions, openBuilder, publish } from './helpers/handbook.js';

interface V2Task {
  id: string;
  status: string;
  source: { requirement_id: string; category: string; tags: string[] | null; region: { name: string } };
}

describe('the handbook task', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ token } = await createPlatformWithEntity(t, 'Acme Payroll', { business_name: 'Harbor Labs' }));
  });
  afterAll(async () => t?.close());

  const handbookTasks = async () => {
    const res = await t.app.inject({ url: '/v2/tasks?page_size=500', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return json<V2Task[]>(res).filter((task) => task.source?.requirement_id === 'employee-handbook');
  };
  const region = (code: string, count: number) =>
    t.app.inject({ method: 'PUT', url: `/v2/regions/${code}`, headers: bearer(token), payload: { employee_count: count } });

  it('no employees, no handbook task', async () => {
    expect(await handbookTasks()).toEqual([]);
  });

  it('appears in a state with employees, with its region and the hr category', async () => {
    expect((await region('CA', 4)).statusCode).toBe(200);
    const tasks = await handbookTasks();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ status: 'todo', source: { category: 'hr', region: { name: 'California' } } });
    expect(tasks[0]!.source.tags).toContain('handbook');
    // The unversioned list shows it too.
    const legacy = await t.app.inject({ url: '/tasks', headers: bearer(token) });
    expect(legacy.statusCode).toBe(200);
    expect(legacy.body).toContain('Publish an employee handbook');
  });

  it('publishing a handbook that covers the state completes it; a new state with employees brings an open one', async () => {
    const browser = await openBuilder(t.app, token);
    await answerAllQuestions(browser);
    await publish(browser);
    expect((await handbookTasks()).map((task) => task.status)).toEqual(['done']);
    expect((await region('NY', 2)).statusCode).toBe(200);
    const after = await handbookTasks();
    expect(after.map((task) => task.status).sort()).toEqual(['done', 'todo']);
    expect(after.find((task) => task.status === 'todo')?.source.region.name).toBe('New York');
    // The builder knows the handbook no longer covers every state: publishing again completes the new one.
    await answerAllQuestions(browser);
    await publish(browser);
    expect((await handbookTasks()).map((task) => task.status)).toEqual(['done', 'done']);
  });

  it('a state without employees any more retires its handbook task like other tasks: an open one goes, a done one stays on record', async () => {
    expect((await region('TX', 3)).statusCode).toBe(200);
    expect((await handbookTasks()).map((task) => `${task.source.region.name} ${task.status}`).sort()).toEqual([
      'California done',
      'New York done',
      'Texas todo',
    ]);
    for (const code of ['TX', 'NY']) expect((await region(code, 0)).statusCode).toBe(200);
    expect((await handbookTasks()).map((task) => `${task.source.region.name} ${task.status}`).sort()).toEqual([
      'California done',
      'New York done',
    ]);
  });
});
