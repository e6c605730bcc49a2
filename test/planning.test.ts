import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/catalog/catalog.js';
import { createLegalEntitiesModule } from '../src/modules/legal-entities/index.js';
import type { Replanner } from '../src/modules/planning/contract.js';
import { createPlanningModule } from '../src/modules/planning/index.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createTaskEvents, plannedTaskStore } from '../src/modules/tasks/index.js';
import { plannedEntityStore } from '../src/modules/legal-entities/index.js';
import { bearer, createPlatform, createTestApp, json, signupWithToken, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';

type V2Task = { id: string; status: string; source: { question_id?: string; answer?: unknown } };

/** Re-planning runs in the transaction of the change that calls for it (docs/architecture.md, "The data flow of one re-planning"). */
describe('planning: a change and its re-planning commit together', () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, platformId } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  const tasksOf = (legalEntityId: string) =>
    t.db
      .selectFrom('tasks')
      .select(['id', 'definition_id', 'region_code', 'period_key', 'status', 'answer', 'due_date', 'applicable'])
      .where('legal_entity_id', '=', legalEntityId)
      .orderBy('id')
      .execute();

  it('signup: a failing re-planning leaves neither the entity nor any task', async () => {
    const catalog = loadCatalog();
    const taskEvents = createTaskEvents({ catalog, publicBaseUrl: 'http://127.0.0.1', events: createEventsService() });
    const real = createPlanningModule({
      db: t.db,
      catalog,
      now: () => new Date(),
      taskEvents,
      plannedTasks: plannedTaskStore,
      plannedEntities: plannedEntityStore,
    }).planning;
    let plannedInside: string[] = [];
    // Plans for real (the tasks are written in the transaction), then fails: nothing of it may remain.
    const failing: Replanner = {
      change: (entities, work) =>
        t.db.transaction().execute(async (trx) => {
          const { created } = await real.change(entities, work, { within: trx });
          plannedInside = [...created.values()].flat().map((c) => c.id);
          throw new Error('planning failed');
        }),
    };
    const unusedSessions = {
      // Issued in the signup's transaction, before the re-planning fails (nothing written here).
      issue: async () => ({ id: 'hs_none', url: 'http://127.0.0.1/hosted/s/none', created_at: '', expires_at: '' }),
      lastCallbackUrl: () => Promise.reject(new Error('not reached')),
    };
    const { signup } = createLegalEntitiesModule({ db: t.db, sessions: unusedSessions, signupTtlSeconds: 60, planning: failing });
    const principal = { platformId, platformName: 'Acme Payroll', apiKeyId: '' };
    await expect(
      signup.signup(principal, {
        business_name: 'Atomic Inc',
        entity_type: 'c_corp',
        tax_classification: 'corp',
        incorporation_region: 'DE',
        external_company_id: 'atomic-1',
      }),
    ).rejects.toThrow('planning failed');
    expect(plannedInside.length).toBeGreaterThan(0);
    expect(await t.db.selectFrom('legal_entities').select('id').where('external_company_id', '=', 'atomic-1').execute()).toEqual([]);
    expect(await t.db.selectFrom('tasks').select('id').where('id', 'in', plannedInside).execute()).toEqual([]);
  });

  it('signup sessions: a refreshed profile re-plans the entity', async () => {
    const started = json(
      await t.app.inject({
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: { authorization: apiKey },
        payload: {
          business_name: 'Moving Co',
          user_email: 'm@example.com',
          callback_url: 'https://platform.example/done',
          business_information: { entity_type: 'llc', incorporation_region: 'TX' },
        },
      }),
    );
    const regions = async () => [...new Set((await tasksOf(started.legal_entity_id)).map((x) => x.region_code))].sort();
    expect(await regions()).toEqual(['TX']);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/v2/signup/sessions',
      headers: { authorization: apiKey },
      payload: {
        legal_entity_id: started.legal_entity_id,
        business_name: 'Moving Co',
        user_email: 'm@example.com',
        callback_url: 'https://platform.example/done',
        business_information: { entity_type: 'llc', incorporation_region: 'WA' },
      },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(await regions()).toEqual(['WA']);
  });

  it('a refused answer (payroll owns the employee settings: 409) leaves the answer unset and the tasks unchanged', async () => {
    const { entityId, token } = await signupWithToken(t.app, apiKey, { business_name: 'Locked Payroll Inc' });
    expect((await t.app.inject({ method: 'PUT', url: '/locations/NY', headers: bearer(token) })).statusCode).toBe(200);
    const question = json<V2Task[]>(await t.app.inject({ url: '/v2/tasks?region=NY&type=question', headers: bearer(token) })).find(
      (x) => x.source.question_id === 'has-employees',
    )!;
    const connect = json(
      await t.app.inject({
        method: 'POST',
        url: '/v2/auth/payroll',
        headers: { authorization: apiKey },
        payload: { legal_entity_id: entityId, authorization_callback_url: 'https://platform.example/payroll' },
      }),
    );
    const { browser } = await openLink(t.app, connect.url);
    await browser!.get('/hosted/payroll'); // the page gives the form its CSRF token
    expect((await browser!.post('/hosted/payroll', {})).statusCode).toBe(303);

    const before = await tasksOf(entityId);
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/questions/${question.id}`,
      headers: bearer(token),
      payload: { answer: true },
    });
    expect(refused.statusCode).toBe(409);
    expect(json(refused).detail).toMatch(/payroll is connected/);
    expect(await tasksOf(entityId)).toEqual(before);
    expect(before.find((x) => x.id === question.id)).toMatchObject({ status: 'todo', answer: null });
    const location = json<{ location: { code: string }; config: { has_employees: boolean | null } }[]>(
      await t.app.inject({ url: '/locations', headers: bearer(token) }),
    );
    expect(location.find((l) => l.location.code === 'NY')!.config.has_employees).toBeNull();
  });

  it('concurrent location changes of one entity neither duplicate nor lose tasks', async () => {
    const { entityId, token } = await signupWithToken(t.app, apiKey, { ...VALID_SIGNUP_V2, business_name: 'Busy Locations Inc' });
    const codes = ['CA', 'NY', 'TX', 'WA', 'FL', 'IL', 'MA', 'CO'];
    const changes = codes.flatMap((code) => [
      t.app.inject({
        method: 'PUT',
        url: `/locations/${code}`,
        headers: bearer(token),
        payload: { config: { has_employees: true, has_physical_location: true } },
      }),
      t.app.inject({ method: 'PUT', url: `/v2/regions/${code}`, headers: bearer(token), payload: { employee_count: 4 } }),
    ]);
    for (const res of await Promise.all(changes)) expect(res.statusCode, res.body).toBe(200);

    const after = await tasksOf(entityId);
    const identities = after.map((x) => `${x.definition_id}|${x.region_code}|${x.period_key}`);
    expect(new Set(identities).size).toBe(identities.length);
    for (const code of codes)
      expect(
        after.some((x) => x.region_code === code),
        code,
      ).toBe(true);
    // Whatever order the changes committed in, the last re-planning saw them all: planning again changes nothing.
    expect((await t.app.services.planning.rollForward()).created).toBe(0);
    expect(await tasksOf(entityId)).toEqual(after);
  });
});
