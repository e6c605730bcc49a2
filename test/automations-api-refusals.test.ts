import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';

/** Bad input is a 422 that writes nothing; conflicts a 409 in `{message, detail}`; sensitive input never leaves the vault. */
describe('automations API: refusals and sensitive input', () => {
  const logLines: string[] = [];
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  beforeAll(async () => {
    f = await startAutomationsFixture({ log: { write: (line) => void logLines.push(line) } });
  });
  afterAll(() => f.close());

  /** Everything a start writes, to compare before and after a refusal. */
  const footprint = async () => ({
    automations: await f.t.db.selectFrom('automations').selectAll().execute(),
    logs: await f.t.db.selectFrom('automation_status_logs').selectAll().execute(),
    tasks: await f.t.db.selectFrom('tasks').select(['id', 'status', 'updated_at']).orderBy('id').execute(),
    jobs: Number(
      (await sql<{ n: string }>`select count(*) as n from pgboss.job where name = 'automations.step'`.execute(f.t.db)).rows[0]!.n,
    ),
  });

  it('422 per field, all at once, and nothing written', async () => {
    const owner = await f.entity({ business_name: 'Typo Co' });
    const task = await owner.task(EDD);
    const before = await footprint();
    const res = await owner.automate(task.id, { first_payroll_date: 'soon', officer_ssn_last4: '12345', shoe_size: 9 });
    expect(res.statusCode).toBe(422);
    const detail = json<{ detail: { loc: unknown[]; msg: string; input: unknown }[] }>(res).detail;
    expect(detail.map((d) => d.loc)).toEqual([
      ['body', 'first_payroll_date'],
      ['body', 'officer_name'],
      ['body', 'officer_ssn_last4'],
      ['body', 'shoe_size'],
    ]);
    expect(detail[0]).toMatchObject({ msg: 'Value error, Enter a date', input: 'soon' });
    expect(detail[2]).toMatchObject({ msg: 'Value error, Enter exactly 4 digits', input: '[redacted]' });
    expect(res.body).not.toContain('12345');
    const notObject = await owner.automate(task.id, ['x'] as unknown as Record<string, unknown>);
    expect(notObject.statusCode).toBe(422);
    expect(await footprint()).toEqual(before);
  });

  it("409 in {message, detail}: no automation in the catalog, already running, task done; 404 for unknown or another entity's task", async () => {
    const owner = await f.entity({ business_name: 'Conflict Co' });
    const manual = await owner.task('ca-workers-compensation');
    const refused = await owner.automate(manual.id, {});
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toEqual({
      message: 'Conflict',
      detail: `Task '${manual.id}' cannot be automated: complete it with its manual steps`,
    });

    const task = await owner.task(EDD);
    expect((await owner.automate(task.id, { ...EDD_INPUT, officer_name: 'needs-info' })).statusCode).toBe(201);
    await owner.waitFor(task.id, (s) => s.status === 'waiting_on_customer_response', 'a live automation');
    const before = await footprint();
    const running = await owner.automate(task.id, EDD_INPUT);
    expect(running.statusCode).toBe(409);
    expect(json(running)).toEqual({
      message: 'Conflict',
      detail: `The automation of task '${task.id}' has already started (status waiting_on_customer_response)`,
    });
    expect(await footprint()).toEqual(before);

    const other = await f.entity({ business_name: 'Done Co' });
    const doneTask = await other.task(EDD);
    expect(
      (await f.t.app.inject({ method: 'PATCH', url: `/tasks/${doneTask.id}`, headers: bearer(other.token), payload: { status: 'done' } }))
        .statusCode,
    ).toBe(200);
    const done = await other.automate(doneTask.id, EDD_INPUT);
    expect(done.statusCode).toBe(409);
    expect(json(done).detail).toBe(`Task '${doneTask.id}' is done: reopen it before automating it`);

    expect((await other.automate('task_unknown', EDD_INPUT)).statusCode).toBe(404);
    expect((await other.automate(task.id, EDD_INPUT)).statusCode).toBe(404); // another entity's task
    expect((await other.get(task.id)).statusCode).toBe(404);
    expect((await other.get(doneTask.id)).statusCode).toBe(404); // no automation
    expect((await f.t.app.inject({ method: 'POST', url: `/tasks/${task.id}/automate`, payload: EDD_INPUT })).statusCode).toBe(401);
  });

  it('sensitive input: sealed in the row, masked in every answer, absent from job data and log lines', async () => {
    const owner = await f.entity({ business_name: 'Secret Co' });
    const task = await owner.task(EDD);
    const ssn = '7319';
    const res = await owner.automate(task.id, { ...EDD_INPUT, officer_ssn_last4: ssn });
    expect(res.statusCode).toBe(201);
    const done = await owner.waitFor(task.id, (s) => s.status === 'complete', 'completion');
    expect(done.input.officer_ssn_last4).toBe('••••');
    const row = await f.t.db.selectFrom('automations').selectAll().where('id', '=', done.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.input)).not.toContain(ssn);
    expect(row.sealed_input!.toString('latin1')).not.toContain(ssn);
    const jobs = await sql<{ data: unknown }>`select data from pgboss.job where name = 'automations.step'`.execute(f.t.db);
    expect(JSON.stringify(jobs.rows)).not.toContain(ssn);
    expect(logLines.length).toBeGreaterThan(10); // debug: every request was logged
    expect(logLines.filter((l) => l.includes('officer_ssn_last4') || l.includes(`"${ssn}"`))).toEqual([]);
  });
});
