import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/catalog/catalog.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';

const catalog = loadCatalog();
const ALL = 'status=todo&status=in-progress&status=done&status=dismissed';
type Automate = {
  type: string;
  form_spec: {
    type: string;
    properties: Record<string, { type: string; format?: string; title: string; writeOnly?: boolean }>;
    required: string[];
  };
  submit_url: string;
  hosted_url: string;
};
type Task = {
  id: string;
  status: string;
  definition: { id: string };
  resolutions: { manual?: unknown; automate?: Automate };
  default_resolution_name: string;
};
type V2Task = {
  id: string;
  source: {
    type: string;
    requirement_id?: string;
    default_resolution_name?: string;
    resolutions: { hosted: { url: string; method: string } | null };
    automation_status?: string | null;
    automation_status_logs?: unknown[];
  };
};

const automationOf = (definitionId: string) => catalog.requirement(definitionId)?.definition.resolutions.automation;

describe('task records say whether a task can be automated', () => {
  let t: TestApp;
  let token: string;
  const get = async <T>(url: string) => json<T>(await t.app.inject({ url, headers: bearer(token) }));

  beforeAll(async () => {
    t = await createTestApp({ publicBaseUrl: 'https://statehouse.test/api' });
    ({ token } = await createPlatformWithEntity(t, 'Acme Payroll', {
      user_email: 'a@example.com',
      business_name: 'Harbor Labs',
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2020-03-10',
    }));
    await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
  });
  afterAll(async () => t.close());

  it('an automatable task carries the automate resolution: its catalog fields as form_spec, and working URLs', async () => {
    const task = (await get<Task[]>('/tasks')).find((x) => x.definition.id === 'ca-edd-employer-registration')!;
    const automate = task.resolutions.automate!;
    const fields = automationOf(task.definition.id)!.fields;
    expect(automate.type).toBe('automate');
    expect(Object.entries(automate.form_spec.properties).map(([name, p]) => [name, p.title])).toEqual(fields.map((f) => [f.name, f.label]));
    expect(automate.form_spec.required).toEqual(fields.filter((f) => f.required).map((f) => f.name));
    expect(automate.form_spec.properties.first_payroll_date).toMatchObject({ type: 'string', format: 'date' });
    expect(automate.form_spec.properties.officer_ssn_last4).toMatchObject({ type: 'string', format: 'ssn-last4', writeOnly: true });
    expect(automate.submit_url).toBe(`https://statehouse.test/api/tasks/${task.id}/automate`);
    expect(automate.hosted_url).toBe(`https://statehouse.test/api/tasks/${task.id}/automate/sessions`);
    expect(task.resolutions.manual).toBeDefined();
    expect(task.default_resolution_name).toBe('automate');
    expect(await get<Task>(`/tasks/${task.id}`)).toEqual(task);

    // hosted_url is the operation that returns the hosted automation page (the base URL's path is the proxy's).
    const hosted = await t.app.inject({
      method: 'POST',
      url: new URL(automate.hosted_url).pathname.replace(/^\/api/, ''),
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    expect(hosted.statusCode).toBe(200);
    expect(json(hosted).automation_url).toMatch(/^https:\/\/statehouse\.test\/api\/hosted\/s\//);
  });

  it('a task without an automation has none and defaults to its manual steps', async () => {
    const task = (await get<Task[]>('/tasks')).find((x) => x.definition.id === 'ca-workers-compensation')!;
    expect(automationOf(task.definition.id)).toBeUndefined();
    expect(task.resolutions.automate).toBeUndefined();
    expect(task.default_resolution_name).toBe('manual');
  });

  it('every list says it, task by task, as the catalog does (unversioned, per location and v2)', async () => {
    for (const url of [`/tasks?${ALL}`, `/locations/CA/tasks?${ALL}`]) {
      const tasks = (await get<Task[]>(url)).filter((x) => catalog.requirement(x.definition.id));
      expect(tasks.some((x) => x.resolutions.automate) && tasks.some((x) => !x.resolutions.automate)).toBe(true);
      for (const task of tasks)
        expect(!!task.resolutions.automate, `${url} ${task.definition.id}`).toBe(!!automationOf(task.definition.id));
    }
    const v2 = (await get<V2Task[]>('/v2/tasks?type=requirement&page_size=500')).map((x) => x.source);
    for (const source of v2) {
      const automatable = !!automationOf(source.requirement_id!);
      expect(source.resolutions.hosted !== null, source.requirement_id).toBe(automatable);
      expect(source.default_resolution_name).toBe(automatable ? 'hosted' : 'manual');
      expect(source.automation_status).toBeNull();
      expect(source.automation_status_logs).toEqual([]);
    }
  });

  it('a done automatable task defaults to its manual steps but still describes its automation', async () => {
    const task = (await get<Task[]>('/tasks')).find((x) => x.definition.id === 'ca-foreign-qualification-corporation')!;
    expect(task.default_resolution_name).toBe('automate');
    const done = await t.app.inject({ method: 'PATCH', url: `/tasks/${task.id}`, headers: bearer(token), payload: { status: 'done' } });
    expect(json<Task>(done)).toMatchObject({
      status: 'done',
      default_resolution_name: 'manual',
      resolutions: { automate: { type: 'automate' } },
    });
    const v2 = await get<V2Task>(`/v2/tasks/${task.id}`);
    expect(v2.source.default_resolution_name).toBe('manual');
    expect(v2.source.resolutions.hosted).toMatchObject({
      method: 'POST',
      url: `https://statehouse.test/api/tasks/${task.id}/automate/sessions`,
    });
  });
});
