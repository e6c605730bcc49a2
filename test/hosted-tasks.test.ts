import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp, discardingJobs } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';
import { EDD, EDD_INPUT, entityCalls } from './helpers/automations.js';

const CALLBACK = 'https://platform.example/back';

describe('hosted task pages', () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;
  let token: string;
  const auth = () => bearer(token);
  type Task = { id: string; status: string; definition: { id: string; location: { code: string } } };
  const tasks = async () =>
    json<Task[]>(await t.app.inject({ url: '/tasks?status=todo&status=in-progress&status=done&status=dismissed', headers: auth() }));
  const session = async (url: string, payload: Record<string, unknown> = { callback_url: CALLBACK }) => {
    const res = await t.app.inject({ method: 'POST', url, headers: auth(), payload });
    return { res, body: json(res) };
  };

  beforeAll(async () => {
    // The automation's jobs are held, never run: these tests look at its start (docs/automations.md has the workflow).
    t = await createTestApp({}, undefined, { jobs: discardingJobs });
    ({ apiKey, platformId, token } = await createPlatformWithEntity(t, 'Acme Payroll', {
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
      headers: auth(),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    await t.app.inject({ method: 'PUT', url: '/locations/NY', headers: auth() });
  });
  afterAll(async () => t.close());

  it('POST /tasks/sessions returns a link to the task list', async () => {
    const { res, body } = await session('/tasks/sessions');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['created_at', 'expires_at', 'url']);
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(3_600_000);
    const { response, browser } = await openLink(t.app, body.url);
    expect(response.headers.location).toBe('/hosted/tasks');
    const page = await browser!.get('/hosted/tasks');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Compliance tasks for Harbor Labs');
    expect(page.body).toContain('Register your corporation to do business in California');
    expect(page.body).toContain('Why:</span> California is not the state of incorporation');
    expect(page.body).toContain(`href="${CALLBACK}"`);
  });

  it('a cookie that is not valid percent-encoding counts as no cookie (never a 500), on every hosted page', async () => {
    const { body } = await session('/tasks/sessions');
    const { browser } = await openLink(t.app, body.url);
    for (const cookie of ['sh_session=%E0%A4%A', `sh_session=%; other=%zz; ${browser!.cookie}`, 'x=%E0%A4%A']) {
      for (const url of ['/hosted/tasks', '/hosted/accounts', '/hosted/signup', '/hosted/documents']) {
        const res = await t.app.inject({ url, headers: { cookie } });
        expect(res.statusCode, `${url} with ${cookie}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
    }
    // A bad neighbour does not hide the good session cookie.
    expect((await t.app.inject({ url: '/hosted/tasks', headers: { cookie: `other=%E0%A4%A; ${browser!.cookie}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/hosted/tasks', headers: { cookie: 'sh_session=%E0%A4%A' } })).statusCode).toBe(401);
  });

  it('a bad filter answers an HTML error page, not JSON', async () => {
    const { body } = await session('/tasks/sessions');
    const { browser } = await openLink(t.app, body.url);
    for (const query of ['?region=California', '?status=' + 'x'.repeat(21), '?region=' + 'x'.repeat(5000)]) {
      const res = await browser!.get(`/hosted/tasks${query}`);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.body).toContain('This address is not valid');
    }
    // An unknown status value is not an error on this page: it shows the open tasks.
    expect((await browser!.get('/hosted/tasks?status=bogus')).statusCode).toBe(200);
  });

  it('filters by location and status, and acts on tasks', async () => {
    const { body } = await session('/tasks/sessions');
    const { browser } = await openLink(t.app, body.url);
    const ca = await browser!.get('/hosted/tasks?region=CA');
    expect(ca.body).toContain('California');
    expect(ca.body).not.toContain('Delaware</span>');
    const agent = (await tasks()).find((x) => x.definition.id === 'ca-registered-agent')!;
    const done = await browser!.post(`/hosted/tasks/${agent.id}/status`, { status: 'done', return_to: '/hosted/tasks?region=CA' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/hosted/tasks?region=CA&updated=${agent.id}&was=todo&now=done`);
    expect((await tasks()).find((x) => x.id === agent.id)!.status).toBe('done');
    const notice = await browser!.get(done.headers.location as string);
    expect(notice.body).toContain('“Keep an agent for service of process in California” marked as done.');
    expect(notice.body).not.toContain(`href="/hosted/tasks/${agent.id}"`); // done tasks are not in the open list
    expect((await browser!.get('/hosted/tasks?region=CA&status=done')).body).toContain(
      'Keep an agent for service of process in California',
    );
    const refused = await browser!.post(`/hosted/tasks/${agent.id}/status`, { status: 'dismissed', return_to: '/hosted/tasks' });
    expect(new URL(refused.headers.location as string, 'http://x').searchParams.get('error')).toContain(
      'This task is already done: move it back to to-do first.',
    );
    const open = await browser!.post(`/hosted/tasks/${agent.id}/status`, { status: 'todo', return_to: 'https://evil.example/' });
    expect(open.headers.location).toBe(`/hosted/tasks/${agent.id}?updated=${agent.id}&was=done&now=todo`); // return_to must stay on the hosted pages
  });

  it('answers questions and says what the answer unlocked; invalid answers are shown next to the field', async () => {
    const { body } = await session('/tasks/sessions');
    const { browser } = await openLink(t.app, body.url);
    const question = (await tasks()).find((x) => x.definition.id === 'has-employees' && x.definition.location.code === 'NY')!;
    const detail = await browser!.get(`/hosted/tasks/${question.id}`);
    expect(detail.body).toContain('Do you have employees who live or work in New York?');
    const invalid = await browser!.post(`/hosted/tasks/${question.id}/answer`, {
      answer: 'maybe',
      return_to: `/hosted/tasks/${question.id}`,
    });
    // Refused: back to the task page at a GET address (a reload does not resend), landing on the field.
    expect(invalid.statusCode).toBe(303);
    const [refusedAt, fragment] = (invalid.headers.location as string).split('#');
    expect(refusedAt).toMatch(new RegExp(`^/hosted/tasks/${question.id}\\?`));
    expect(fragment).toBe(`answer-${question.id}`);
    const refusedPage = await browser!.get(refusedAt!);
    expect(refusedPage.body).toContain(`<p class="error" id="answer-${question.id}-error">Choose yes or no</p>`);
    const answered = await browser!.post(`/hosted/tasks/${question.id}/answer`, {
      answer: 'true',
      return_to: `/hosted/tasks/${question.id}`,
    });
    expect(answered.statusCode).toBe(303);
    const page = await browser!.get(answered.headers.location as string);
    expect(page.body).toContain('Saved. Your answer added these tasks:');
    expect(page.body).toMatch(/<li>[^<]*New York[^<]*<\/li>/);
    const location = json<{ location: { code: string }; config: { has_employees: boolean } }[]>(
      await t.app.inject({ url: '/locations', headers: auth() }),
    ).find((l) => l.location.code === 'NY')!;
    expect(location.config.has_employees).toBe(true);
  });

  it('answering from the filtered list comes back to that list, also when the answer is refused (typed value kept)', async () => {
    const { body } = await session('/tasks/sessions');
    const { browser } = await openLink(t.app, body.url);
    const question = (await tasks()).find(
      (x) => ['registration-date', 'operations-start-date'].includes(x.definition.id) && x.status === 'todo',
    )!;
    const region = question.definition.location.code;
    const list = `/hosted/tasks?region=${region}&group=category`;
    const listed = await browser!.get(list);
    expect(listed.body).toContain(`<input type="hidden" name="return_to" value="${list.replace('&', '&amp;')}">`);
    // A date more than one year ahead is refused (a typo for a past year): the list again, with the typed value.
    const far = await browser!.post(`/hosted/tasks/${question.id}/answer`, { answer: '2031-01-01', return_to: list });
    expect(far.statusCode).toBe(303);
    const [refusedAt, fragment] = (far.headers.location as string).split('#');
    expect(fragment).toBe(`answer-${question.id}`);
    const refused = new URL(refusedAt!, 'http://local');
    expect(refused.pathname).toBe('/hosted/tasks');
    expect(refused.searchParams.get('region')).toBe(region);
    expect(refused.searchParams.get('group')).toBe('category');
    const again = await browser!.get(refusedAt!);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain(`id="answer-${question.id}-error">Enter a date no more than one year from today`);
    expect(again.body).toContain('value="2031-01-01" aria-invalid="true"');
    expect(json<{ status: string }>(await t.app.inject({ url: `/v2/tasks/${question.id}`, headers: auth() })).status).toBe('todo');
    // An empty answer too.
    const empty = await browser!.post(`/hosted/tasks/${question.id}/answer`, { answer: '', return_to: list });
    expect(empty.headers.location).toMatch(/^\/hosted\/tasks\?region=/);
    expect((await browser!.get((empty.headers.location as string).split('#')[0]!)).body).toContain(
      `id="answer-${question.id}-error">Enter a date</p>`,
    );
    // Saved: back to the same list, with the notice.
    const saved = await browser!.post(`/hosted/tasks/${question.id}/answer`, { answer: '2024-05-01', return_to: list });
    expect(saved.statusCode).toBe(303);
    const savedAt = new URL(saved.headers.location as string, 'http://local');
    expect([savedAt.pathname, savedAt.searchParams.get('region'), savedAt.searchParams.get('group')]).toEqual([
      '/hosted/tasks',
      region,
      'category',
    ]);
    expect((await browser!.get(saved.headers.location as string)).body).toContain('Saved. Your answer added');
  });

  it('a v2 management session is limited to its task type, status and region', async () => {
    const bad = await session('/v2/tasks/manage/session', { callback_url: CALLBACK, task_type: 'question', status: 'overdue' });
    expect(bad.res.statusCode).toBe(422);
    expect(bad.body).toMatchObject({
      message: 'Validation error',
      detail: expect.stringContaining('body.status: '),
      errors: [{ loc: ['body', 'status'] }],
    });
    const { res, body } = await session('/v2/tasks/manage/session', {
      callback_url: CALLBACK,
      task_type: 'question',
      region_id: 'NY',
      status: 'todo',
    });
    expect(res.statusCode).toBe(200);
    const { browser } = await openLink(t.app, body.url);
    const page = await browser!.get('/hosted/tasks');
    expect(page.body).toContain('New York');
    expect(page.body).not.toContain('Register your corporation');
    expect(page.body).not.toContain('id="filter-region"');
    const requirement = (await tasks()).find((x) => x.definition.id === 'ca-edd-employer-registration')!;
    expect((await browser!.get(`/hosted/tasks/${requirement.id}`)).statusCode).toBe(404);
  });

  it('a one-task session shows that task only', async () => {
    const task = (await tasks()).find((x) => x.definition.id === 'ca-workers-compensation')!;
    const { res, body } = await session(`/v2/tasks/${task.id}/session`);
    expect(res.statusCode).toBe(200);
    const { response, browser } = await openLink(t.app, body.url);
    expect(response.headers.location).toBe(`/hosted/tasks/${task.id}`);
    const page = await browser!.get(`/hosted/tasks/${task.id}`);
    expect(page.body).toContain('Get workers&#39; compensation insurance for California employees');
    expect(page.body).toContain('How to do it');
    expect(page.body).toContain('Official resources');
    expect((await browser!.get('/hosted/tasks')).headers.location).toBe(`/hosted/tasks/${task.id}`);
    const other = (await tasks()).find((x) => x.definition.id === 'ca-registered-agent')!;
    expect((await browser!.get(`/hosted/tasks/${other.id}`)).statusCode).toBe(404);
    expect((await browser!.post(`/hosted/tasks/${other.id}/status`, { status: 'done' })).statusCode).toBe(404);
    expect((await session('/v2/tasks/task_nope/session')).res.statusCode).toBe(404);
  });

  describe('automation', () => {
    it('collects the input the automation needs, records it and moves the task to in-progress', async () => {
      const task = (await tasks()).find((x) => x.definition.id === 'ca-edd-employer-registration')!;
      const { res, body } = await session(`/tasks/${task.id}/automate/sessions`);
      expect(res.statusCode).toBe(200);
      expect(Object.keys(body).sort()).toEqual(['automation_url', 'created_at', 'expires_at']);
      const { response, browser } = await openLink(t.app, body.automation_url);
      expect(response.headers.location).toBe(`/hosted/automation/${task.id}`);
      const form = await browser!.get(`/hosted/automation/${task.id}`);
      expect(form.body).toContain('Date of the first California payroll');
      expect(form.body).toContain('Last four digits of the officer');
      const invalid = await browser!.post(`/hosted/automation/${task.id}`, {
        first_payroll_date: 'soon',
        officer_name: '',
        officer_ssn_last4: '12345',
      });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.body).toContain('Enter a date');
      expect(invalid.body).toContain('Name of a responsible officer is required');
      expect(invalid.body).toContain('Enter exactly 4 digits');
      const ok = await browser!.post(`/hosted/automation/${task.id}`, {
        first_payroll_date: '2026-12-01',
        officer_name: 'Ada Lovelace',
        officer_ssn_last4: '1234',
      });
      expect(ok.statusCode).toBe(303);
      const target = new URL(ok.headers.location as string);
      expect(Object.fromEntries(target.searchParams)).toMatchObject({ status: 'started', task_id: task.id });

      const v2 = json<{ status: string; source: { automation_status: string; automation_status_logs: { status: string }[] } }>(
        await t.app.inject({ url: `/v2/tasks/${task.id}`, headers: auth() }),
      );
      expect(v2.status).toBe('in-progress');
      expect(v2.source.automation_status).toBe('started');
      expect(v2.source.automation_status_logs.map((l) => l.status)).toEqual(['started']);
      // The SSN digits are sealed in the vault: the stored input shows them masked.
      const stored = await t.db.selectFrom('automations').selectAll().where('task_id', '=', task.id).executeTakeFirstOrThrow();
      expect(stored.input).toEqual({ first_payroll_date: '2026-12-01', officer_name: 'Ada Lovelace', officer_ssn_last4: '••••' });
      expect(stored.sealed_input).not.toBeNull();

      // A new session for a started automation shows its status.
      const again = await session(`/tasks/${task.id}/automate/sessions`);
      const { browser: second } = await openLink(t.app, again.body.automation_url);
      expect((await second!.get(`/hosted/automation/${task.id}`)).body).toContain('The filing is under way');
    });

    it('marking done a task Statehouse is filing says it stops the filing, and undo says the filing stays stopped', async () => {
      // An entity of its own: its automation is started here and stays started (the jobs are held).
      const other = await signupWithToken(t.app, apiKey, {
        user_email: 'b@example.com',
        business_name: 'Filing Co',
        entity_type: 'c_corp',
        tax_class: 'corp',
        incorporation_region: 'DE',
        incorporated_date: '2020-03-10',
      });
      await t.app.inject({
        method: 'PUT',
        url: '/locations/CA',
        headers: bearer(other.token),
        payload: { config: { has_employees: true, has_physical_location: true } },
      });
      const calls = entityCalls(t, other.token);
      const task = await calls.task(EDD);
      expect((await calls.automate(task.id, { ...EDD_INPUT })).statusCode).toBeLessThan(300);
      const link = json<{ url: string }>(
        await t.app.inject({ method: 'POST', url: '/tasks/sessions', headers: bearer(other.token), payload: { callback_url: CALLBACK } }),
      );
      const { browser } = await openLink(t.app, link.url);
      for (const url of ['/hosted/tasks', `/hosted/tasks/${task.id}`]) {
        const page = await browser!.get(url);
        expect(page.body, url).toContain('Marking it as done stops that filing, and undo does not resume it.');
        expect(page.body, url).toContain(
          `aria-describedby="filing-${task.id}">Mark as done and stop the filing<span class="visually-hidden">`,
        );
      }
      const done = await browser!.post(`/hosted/tasks/${task.id}/status`, { status: 'done', return_to: '/hosted/tasks?status=all' });
      expect(done.statusCode).toBe(303);
      const confirmed = await browser!.get(done.headers.location as string);
      expect(confirmed.body).toContain('marked as done; the filing Statehouse was doing was stopped.');
      expect((await calls.state(task.id)).status).toBe('canceled');
      const undone = await browser!.post(`/hosted/tasks/${task.id}/undo`, {
        from: 'done',
        to: 'in-progress',
        stopped: 'filing',
        return_to: '/hosted/tasks?status=all',
      });
      expect(undone.statusCode).toBe(303);
      const after = await browser!.get(undone.headers.location as string);
      expect(after.body).toContain('is open again (in progress). The filing that was stopped stays stopped: start it again from the task.');
      expect((await calls.state(task.id)).status).toBe('canceled');
      // The undo form of the confirmation carries that the filing was stopped.
      expect(confirmed.body).toContain('name="stopped" value="filing"');
      // A task with no filing under way keeps the plain button.
      expect((await browser!.get('/hosted/tasks')).body).toContain('Mark as done<span class="visually-hidden">');
    });

    it('a task without an automation is a 409', async () => {
      const task = (await tasks()).find((x) => x.definition.id === 'ca-workers-compensation')!;
      const { res, body } = await session(`/tasks/${task.id}/automate/sessions`);
      expect(res.statusCode).toBe(409);
      expect(body.detail).toMatch(/cannot be automated/);
      expect((await session('/tasks/task_nope/automate/sessions')).res.statusCode).toBe(404);
    });
  });

  it('callback URLs must use an allowed origin when the platform lists some', async () => {
    await t.db.insertInto('platform_callback_origins').values({ platform_id: platformId, origin: 'https://app.acme.example' }).execute();
    try {
      const refused = await session('/tasks/sessions', { callback_url: 'https://evil.example/phish' });
      expect(refused.res.statusCode).toBe(422);
      expect(refused.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'callback_url'] });
      expect((await session('/tasks/sessions', { callback_url: 'https://app.acme.example/done' })).res.statusCode).toBe(200);
      const signup = await t.app.inject({
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: { authorization: apiKey },
        payload: { business_name: 'X', user_email: 'x@example.com', callback_url: 'https://evil.example/' },
      });
      expect(signup.statusCode).toBe(422);
    } finally {
      await t.db.deleteFrom('platform_callback_origins').where('platform_id', '=', platformId).execute();
    }
  });
});
