import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { eventsUntil } from './helpers/events.js';

type V2Task = {
  id: string;
  status: string;
  source: { type: string; requirement_id?: string; question_id?: string; due_date?: string | null };
};

/**
 * A recurring filing in a state whose registration date is not known yet is planned with an estimated date (assuming
 * registration on the onboarding day); answering the registration-date question makes it exact on the SAME task.
 */
describe('planning: estimated due dates become exact on the same task', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  it('a Wyoming annual report: estimated from onboarding, then exact from the answered registration date, one task.updated', async () => {
    const { entityId, token } = await signupWithToken(t.app, apiKey, {
      business_name: 'Estimate LLC',
      entity_type: 'llc',
      tax_class: 'partnership',
      incorporation_region: 'DE',
    });
    // Onboarded on a fixed day, so the dates below do not depend on the day the test runs (the window only grows).
    await sql`update legal_entities set created_at = '2026-03-10T12:00:00Z' where id = ${entityId}`.execute(t.db);
    const located = await t.app.inject({
      method: 'PUT',
      url: '/locations/WY',
      headers: bearer(token),
      payload: { config: { has_employees: false, has_physical_location: true } },
    });
    expect(located.statusCode).toBe(200);

    const wyoming = async () => json<V2Task[]>(await t.app.inject({ url: '/v2/tasks?region=WY&page_size=500', headers: bearer(token) }));
    const reportsOf = (tasks: V2Task[]) => tasks.filter((x) => x.source.requirement_id === 'wy-annual-report-llc');
    const row = (id: string) =>
      t.db
        .selectFrom('tasks')
        .select(['period_key', 'due_date_exact', 'due_date_question', 'due_date_rule'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    // Due the first day of the anniversary month, from the year after registration. Assumed registered 2026-03-10:
    // first due 2027-03-01 (and 2028-03-01 once the window reaches it).
    const before = reportsOf(await wyoming());
    const estimate = before.find((x) => x.source.due_date === '2027-03-01')!;
    expect(estimate, JSON.stringify(before)).toBeDefined();
    expect(await row(estimate.id)).toMatchObject({
      period_key: 'estimated:2027',
      due_date_exact: false,
      due_date_question: 'registration-date',
    });
    expect((await row(estimate.id)).due_date_rule).toContain('estimated: assumes registration on 2026-03-10');

    // Registered in Wyoming 2024-02-20: due the first of February, 2027-02-01 for the 2027 filing.
    const question = (await wyoming()).find((x) => x.source.question_id === 'registration-date')!;
    const answered = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/questions/${question.id}`,
      headers: bearer(token),
      payload: { answer: '2024-02-20' },
    });
    expect(answered.statusCode, answered.body).toBe(200);

    const after = reportsOf(await wyoming());
    const exact = after.find((x) => x.id === estimate.id)!;
    expect(exact.source.due_date).toBe('2027-02-01');
    expect(await row(estimate.id)).toMatchObject({ period_key: '2027-02-01', due_date_exact: true, due_date_question: null });
    expect(after.some((x) => x.source.due_date === '2027-03-01')).toBe(false);

    // The platform sees the filing change date: one task.updated naming due_date, no delete and re-create of it.
    const events = await eventsUntil(
      t.app,
      apiKey,
      (e) => e.some((x) => x.type === 'task.updated' && x.data.object.id === estimate.id),
      `legal_entity_id=${entityId}`,
    );
    const ofTask = events.filter((e) => e.data.object?.id === estimate.id);
    expect(ofTask.map((e) => e.type)).toEqual(['task.created', 'task.updated']);
    expect(ofTask[1]!.data.changed).toContain('due_date');
    expect(
      events
        .filter((e) => e.type === 'task.deleted' && e.data.object?.source?.requirement_id === 'wy-annual-report-llc')
        .map((e) => e.data.object.source.due_date),
    ).not.toContain('2027-03-01');
  });
});
