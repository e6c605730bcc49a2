import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from './helpers/app.js';
import { EDD, EDD_INPUT, FOREIGN, FOREIGN_INPUT, startAutomationsFixture } from './helpers/automations.js';

type Log = { status: string; updated_at: string; reason: string | null };
type V2Source = {
  requirement_id: string;
  default_resolution_name: string;
  automation_status: string | null;
  automation_status_logs: Log[];
};
type Record = {
  id: string;
  status: string;
  definition: { id: string };
  default_resolution_name: string;
  resolutions: { automate?: { submit_url: string } };
};

/** The task records follow the task's automation: the v2 status and log, the default resolution; lists included. */
describe('task records report their automation', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  beforeAll(async () => {
    f = await startAutomationsFixture();
  });
  afterAll(() => f.close());

  it('automation_status is null before, started once submitted through submit_url, complete after, with every change logged', async () => {
    const owner = await f.entity();
    const auth = bearer(owner.token);
    const get = async <T>(url: string) => json<T>(await f.t.app.inject({ url, headers: auth }));
    const record = (await get<Record[]>('/tasks')).find((x) => x.definition.id === EDD)!;
    const v2 = async () => (await get<{ source: V2Source }>(`/v2/tasks/${record.id}`)).source;
    expect(await v2()).toMatchObject({ automation_status: null, automation_status_logs: [], default_resolution_name: 'hosted' });

    // The record's submit_url is the operation that starts it (the test app's PUBLIC_BASE_URL is http://statehouse.test).
    const submit = new URL(record.resolutions.automate!.submit_url);
    expect(submit.origin).toBe('http://statehouse.test');
    const started = await f.t.app.inject({ method: 'POST', url: submit.pathname, headers: auth, payload: EDD_INPUT });
    expect(started.statusCode, started.body).toBe(201);
    const first = await v2();
    expect(first.automation_status).not.toBeNull();
    expect(first.automation_status_logs[0]).toMatchObject({ status: 'started', reason: expect.any(String) });

    await owner.waitFor(record.id, (s) => s.status === 'complete', 'the sandbox to complete');
    const done = await v2();
    expect(done.automation_status).toBe('complete');
    expect(done.automation_status_logs.map((l) => l.status)).toEqual(['started', 'waiting_on_state', 'complete']);
    for (const log of done.automation_status_logs) expect(Number.isNaN(Date.parse(log.updated_at))).toBe(false);
    const times = done.automation_status_logs.map((l) => Date.parse(l.updated_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Done: the manual steps are the default now; automating it again is a clear 409.
    expect(done.default_resolution_name).toBe('manual');
    expect((await get<Record>(`/tasks/${record.id}`)).default_resolution_name).toBe('manual');
    const again = await f.t.app.inject({ method: 'POST', url: submit.pathname, headers: auth, payload: EDD_INPUT });
    expect(again.statusCode).toBe(409);
    expect(json(again).detail).toMatch(/is done/);
  });

  it("the lists report each task's own automation, and a change to it is never served from a stale list", async () => {
    const owner = await f.entity({ business_name: 'Two Filings Inc' });
    const auth = bearer(owner.token);
    const list = async () =>
      json<{ source: V2Source }[]>(await f.t.app.inject({ url: '/v2/tasks?type=requirement&page_size=500', headers: auth })).map(
        (x) => x.source,
      );
    const statusOf = (sources: V2Source[], id: string) => sources.find((s) => s.requirement_id === id)!.automation_status;
    const before = await list();
    expect(before.every((s) => s.automation_status === null)).toBe(true);

    const edd = await owner.task(EDD);
    const foreign = await owner.task(FOREIGN);
    expect((await owner.automate(edd.id, { ...EDD_INPUT, officer_name: 'needs-info' })).statusCode).toBe(201);
    await owner.waitFor(edd.id, (s) => s.status === 'waiting_on_customer_response', 'the sandbox to ask a question');
    expect((await owner.automate(foreign.id, FOREIGN_INPUT)).statusCode).toBe(201);
    await owner.waitFor(foreign.id, (s) => s.status === 'complete', 'the sandbox to complete');

    const after = await list();
    expect(statusOf(after, EDD)).toBe('waiting_on_customer_response');
    expect(statusOf(after, FOREIGN)).toBe('complete');
    expect(after.filter((s) => s.automation_status !== null)).toHaveLength(2);
    const asked = after.find((s) => s.requirement_id === EDD)!.automation_status_logs.at(-1)!;
    expect(asked).toMatchObject({ status: 'waiting_on_customer_response', reason: expect.stringContaining('more information') });
  });
});
