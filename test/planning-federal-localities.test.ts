import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/catalog/catalog.js';
import { accessToken, bearer, createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { eventsUntil, type ListedEvent } from './helpers/events.js';
import { BUSINESS_STEP, CONTACT_STEP, openLink } from './helpers/hosted.js';

// Federal requirements (planned once per business, in its anchor region) and localities (asked per city), through the
// API and the hosted pages, on a small fixture catalog: PA (Philadelphia, Pittsburgh) and NJ, three federal requirements.
const catalog = loadCatalog(fileURLToPath(new URL('./fixtures/catalog-localities', import.meta.url)));

type Source = {
  type: string;
  requirement_id?: string;
  question_id?: string;
  region?: { name: string };
  regions?: { name: string }[];
  region_scope?: string;
  due_date?: string | null;
  due_date_basis?: unknown;
  criteria_met?: { reason: string }[];
};
type PlatformTask = { id: string; title: string; status: string; source: Source };

describe('federal requirements and localities', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { catalog });
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  /**
   * A Delaware LLC (a state this catalog does not plan: the federal anchor is its first location in code order) with
   * these regions and employee counts.
   */
  async function entityWith(regions: Record<string, number>) {
    const { token, entityId } = await signupWithToken(t.app, apiKey, { entity_type: 'llc', tax_class: 'disregarded' });
    for (const [code, count] of Object.entries(regions)) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v2/regions/${code}`,
        headers: bearer(token),
        payload: { employee_count: count },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const tasks = async () => json<PlatformTask[]>(await t.app.inject({ url: '/v2/tasks?limit=100', headers: bearer(token) }));
    return { token, entityId, tasks };
  }
  const requirement = (tasks: PlatformTask[], id: string) => tasks.filter((x) => x.source.requirement_id === id);
  const where = (tasks: PlatformTask[], id: string) => requirement(tasks, id).map((x) => `${x.source.region!.name}:${x.status}`);
  const localityQuestions = (tasks: PlatformTask[]) => tasks.filter((x) => x.source.question_id === 'in-locality');

  it('a business with employees gets the federal tasks once, in its anchor region, with reasons as sentences', async () => {
    const { tasks } = await entityWith({ PA: 3 });
    const all = await tasks();
    expect(where(all, 'us-irs-ein')).toEqual(['Pennsylvania:todo']);
    expect(requirement(all, 'us-irs-ein')[0]!.source.criteria_met!.map((c) => c.reason)).toEqual([
      'The business has employees in the United States',
    ]);
    // Incorporated in a US state: no beneficial-ownership report (only companies formed abroad owe one).
    expect(requirement(all, 'us-fincen-boi')).toEqual([]);
  });

  it('none of the employer ones without employees', async () => {
    const all = await (await entityWith({ PA: 0 })).tasks();
    expect(all.filter((x) => x.source.requirement_id?.startsWith('us-'))).toEqual([]);
  });

  it('moving the anchor moves the federal tasks, the ones someone acted on too: same task, same status, no second EIN', async () => {
    const { token, entityId, tasks } = await entityWith({ PA: 3 });
    const before = await tasks();
    const ein = requirement(before, 'us-irs-ein')[0]!;
    const form940Before = requirement(before, 'us-irs-form-940')[0]!;
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${ein.id}`, headers: bearer(token), payload: { status: 'done' } })).statusCode,
    ).toBe(200);
    // New Jersey comes first in code order: the anchor moves there.
    await t.app.inject({ method: 'PUT', url: '/v2/regions/NJ', headers: bearer(token), payload: { employee_count: 0 } });
    const after = await tasks();
    expect(requirement(after, 'us-irs-ein').map((x) => [x.id, x.source.region!.name, x.status])).toEqual([[ein.id, 'New Jersey', 'done']]);
    // The same Form 940 task, dated, estimated until New Jersey's registration date (the anchor's) is answered.
    const form940 = requirement(after, 'us-irs-form-940');
    expect(form940.map((x) => [x.id, x.source.region!.name, x.status])).toEqual([[form940Before.id, 'New Jersey', 'todo']]);
    expect(form940[0]!.source.due_date_basis).toMatchObject({ exact: false, question_id: 'registration-date' });
    // Its hosted page says so and links the question that makes it exact.
    const question = after.find((x) => x.source.question_id === 'registration-date' && x.source.regions![0]!.name === 'New Jersey')!;
    const session = json<{ url: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/tasks/sessions',
        headers: bearer(token),
        payload: { callback_url: 'https://platform.example/back' },
      }),
    );
    const { browser } = await openLink(t.app, session.url);
    const page = await browser!.get(`/hosted/tasks/${form940[0]!.id}`);
    expect(page.body).toContain(
      `<strong>Estimated:</strong> answer “<a href="/hosted/tasks/${question.id}">On what date was the business registered with the state of New Jersey?</a>” to make it exact.`,
    );
    const account = json<{ id: string; definition: { id: string; location: { code: string } } }[]>(
      await t.app.inject({ url: '/tasks?status=done', headers: bearer(token) }),
    );
    expect(account.filter((x) => x.definition.id === 'us-irs-ein').map((x) => [x.id, x.definition.location.code])).toEqual([
      [ein.id, 'NJ'],
    ]);

    // The events say the tasks moved (task.updated, changed: region), never that they were deleted or created again.
    // Listable once no older transaction runs (helpers/events.ts): wait for it, never for a time.
    const federalIds = [ein.id, form940Before.id];
    const moved = (e: ListedEvent) => e.type === 'task.updated' && e.legal_entity_id === entityId && e.data.changed!.includes('region');
    const events = (await eventsUntil(t.app, apiKey, (list) => list.filter(moved).length === 2)).filter((e) =>
      federalIds.includes(String(e.data.object.id)),
    );
    expect(
      events
        .filter(moved)
        .map((e) => [e.data.object.id, e.data.object.source.region.name])
        .sort(),
    ).toEqual(federalIds.map((id) => [id, 'New Jersey']).sort());
    expect(
      events
        .filter((e) => e.type !== 'task.updated')
        .map((e) => [e.type, e.data.object.id])
        .sort(),
    ).toEqual(federalIds.map((id) => ['task.created', id]).sort());
  });

  it('a state of incorporation set later (hosted signup) moves the federal tasks there, a done EIN still done', async () => {
    const session = json<{ url: string; legal_entity_id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/accounts/signup/sessions',
        headers: { authorization: apiKey },
        payload: { business_name: 'Rose & Thorn', user_email: 'r@example.com', callback_url: 'https://platform.example/welcome' },
      }),
    );
    const token = await accessToken(t.app, apiKey, session.legal_entity_id);
    await t.app.inject({ method: 'PUT', url: '/v2/regions/PA', headers: bearer(token), payload: { employee_count: 3 } });
    const tasks = async () => json<PlatformTask[]>(await t.app.inject({ url: '/v2/tasks?limit=100', headers: bearer(token) }));
    // No state of incorporation yet: anchored in the only location; the beneficial-ownership report (companies
    // formed abroad) is undecided, so not planned.
    let all = await tasks();
    expect(where(all, 'us-irs-ein')).toEqual(['Pennsylvania:todo']);
    expect(where(all, 'us-fincen-boi')).toEqual([]);
    const ein = requirement(all, 'us-irs-ein')[0]!;
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${ein.id}`, headers: bearer(token), payload: { status: 'done' } })).statusCode,
    ).toBe(200);

    // The owner's hosted signup sets New Jersey as the state of incorporation.
    const { browser } = await openLink(t.app, session.url);
    for (let i = 0; i < 5; i++) {
      const location = (await browser!.get('/hosted/signup')).headers.location as string | undefined;
      const step = location?.split('/').at(-1);
      if (!location || step === 'review') break;
      await browser!.get(location);
      await browser!.post(
        location,
        step === 'business' ? { ...BUSINESS_STEP, incorporation_location: 'NJ' } : step === 'contact' ? CONTACT_STEP : {},
      );
    }
    all = await tasks();
    // The done EIN moved with the anchor: the same task, still done.
    expect(requirement(all, 'us-irs-ein').map((x) => [x.id, x.source.region!.name, x.status])).toEqual([[ein.id, 'New Jersey', 'done']]);
    expect(where(all, 'us-fincen-boi')).toEqual([]);
  });

  it('a locality is asked only when the rest could hold; yes creates the local task in the same answer, no removes it', async () => {
    const { token, tasks } = await entityWith({ PA: 3 });
    const all = await tasks();
    // Philadelphia's wage tax needs employees (known): asked. Pittsburgh's needs premises (unknown): that is asked first.
    expect(localityQuestions(all).map((q) => q.title)).toEqual([
      'Does the business have employees or a place of business in Philadelphia, Pennsylvania?',
    ]);
    expect(all.some((x) => x.source.question_id === 'has-physical-location')).toBe(true);
    const [philadelphia] = localityQuestions(all);
    expect(philadelphia!.source.region_scope).toBe('city');
    expect(requirement(all, 'pa-philadelphia-wage-tax')).toEqual([]);

    const yes = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/questions/${philadelphia!.id}`,
      headers: bearer(token),
      payload: { answer: true },
    });
    expect(yes.statusCode, yes.body).toBe(200);
    expect(json<{ unlocked_tasks: PlatformTask[] }>(yes).unlocked_tasks.map((x) => x.source.requirement_id)).toEqual([
      'pa-philadelphia-wage-tax',
    ]);
    const wageTax = requirement(await tasks(), 'pa-philadelphia-wage-tax')[0]!;
    expect(wageTax.source.criteria_met!.map((c) => c.reason)).toContain(
      'The business has employees or premises in Philadelphia, Pennsylvania',
    );

    // The premises answer brings Pittsburgh's question: one question task per locality.
    const premises = (await tasks()).find((x) => x.source.question_id === 'has-physical-location')!;
    await t.app.inject({ method: 'PATCH', url: `/v2/tasks/questions/${premises.id}`, headers: bearer(token), payload: { answer: true } });
    expect(
      localityQuestions(await tasks())
        .map((q) => q.title)
        .sort(),
    ).toEqual([
      'Does the business have employees or a place of business in Philadelphia, Pennsylvania?',
      'Does the business have employees or a place of business in Pittsburgh, Pennsylvania?',
    ]);

    // No, on the hosted question page: the wage tax goes (untouched), the answered question stays.
    const session = json<{ url: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/tasks/sessions',
        headers: bearer(token),
        payload: { callback_url: 'https://platform.example/back' },
      }),
    );
    const { browser } = await openLink(t.app, session.url);
    const page = await browser!.get(`/hosted/tasks/${philadelphia!.id}`);
    expect(page.body).toContain('Does the business have employees or a place of business in Philadelphia, Pennsylvania?');
    const answered = await browser!.post(`/hosted/tasks/${philadelphia!.id}/answer`, { answer: 'false' });
    expect(answered.statusCode).toBe(303);
    const after = await tasks();
    expect(requirement(after, 'pa-philadelphia-wage-tax')).toEqual([]);
    expect(localityQuestions(after).find((q) => q.id === philadelphia!.id)).toMatchObject({ status: 'done' });
  });

  it('due_date_basis: the rule in words and exact, on the v2 and the unversioned records and the hosted page', async () => {
    const { token } = await signupWithToken(t.app, apiKey, {
      entity_type: 'llc',
      tax_class: 'disregarded',
      incorporation_region: 'NJ',
      incorporated_date: '2024-05-10',
    });
    await t.app.inject({ method: 'PUT', url: '/v2/regions/NJ', headers: bearer(token), payload: { employee_count: 2 } });
    const v2 = json<PlatformTask[]>(await t.app.inject({ url: '/v2/tasks?limit=100', headers: bearer(token) }));
    const form940 = requirement(v2, 'us-irs-form-940')[0]!;
    const basis = { rule: 'Due January 31 every year, from the first due date after registration', exact: true, question_id: null };
    expect(form940.source.due_date).toMatch(/^\d{4}-01-31$/);
    expect(form940.source.due_date_basis).toEqual(basis);
    expect(requirement(v2, 'us-irs-ein')[0]!.source.due_date_basis).toBeNull();
    // The task's event carries it too (task.created, the v2 task as payload).
    // Listable once no older transaction runs (helpers/events.ts): wait for it, never for a time.
    const isForm940 = (e: ListedEvent) => e.data.object.id === form940.id;
    const events = await eventsUntil(t.app, apiKey, (list) => list.some(isForm940), 'type=task.created');
    expect(events.find(isForm940)!.data.object.source.due_date_basis).toEqual(basis);

    const account = json<{ id: string; due_date: string; due_date_basis: unknown; definition: { id: string } }[]>(
      await t.app.inject({ url: '/tasks', headers: bearer(token) }),
    );
    expect(account.find((x) => x.definition.id === 'us-irs-form-940')!.due_date_basis).toEqual(basis);
    expect(account.find((x) => x.definition.id === 'us-irs-ein')!.due_date_basis).toBeNull();

    const session = json<{ url: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/tasks/sessions',
        headers: bearer(token),
        payload: { callback_url: 'https://platform.example/back' },
      }),
    );
    const { browser } = await openLink(t.app, session.url);
    const page = await browser!.get(`/hosted/tasks/${form940.id}`);
    const year = form940.source.due_date!.slice(0, 4);
    expect(page.body).toContain(
      `<p class="due-basis">Due <time datetime="${year}-01-31">January 31, ${year}</time> — January 31 every year, from the first due date after registration</p>`,
    );
    expect(page.body).not.toContain('Estimated');
  });
});
