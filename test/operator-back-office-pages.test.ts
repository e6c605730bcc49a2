import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';
import { createOperatorKey, signIn, type OperatorBrowser } from './helpers/back-office.js';
import { tinyPdf } from './helpers/pdf.js';

/** The back office's pages over HTTP: the actions' answers (redirects, errors at their fields, 409, 413) and their audit lines. */
describe('back office pages: actions over HTTP', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  let browser: OperatorBrowser;
  let key: string;
  /** The multipart framing the back office allows beyond MAIL_MAX_BYTES. */
  const SLACK = 64 * 1024;

  beforeAll(async () => {
    f = await startAutomationsFixture({ automations: { sandbox: false } });
    key = (await createOperatorKey(f.t.db, 'Grace')).key;
    browser = (await signIn(f.t.app, key)).browser!;
  });
  afterAll(() => f.close());

  async function queued() {
    const owner = await f.entity();
    const task = await owner.task(EDD);
    const started = await owner.automate(task.id, EDD_INPUT);
    return { owner, task, id: json<{ id: string }>(started).id };
  }
  const audit = async (id: string) =>
    json<{ events: { action: string }[] }>(
      await f.t.app.inject({ url: `/operator/v1/audit-events?subject_id=${id}`, headers: { authorization: `Bearer ${key}` } }),
    ).events.map((e) => e.action);

  it('claims from the queue and comes back to the same filtered page, never to another address', async () => {
    const { id } = await queued();
    await browser.get('/operator?region=CA&assigned=unassigned');
    const back = await browser.post(`/operator/automations/${id}/claim`, { return_to: '/operator?region=CA&assigned=unassigned' });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/operator?region=CA&assigned=unassigned&notice=claimed');
    const elsewhere = await browser.post(`/operator/automations/${id}/claim`, { return_to: 'https://evil.example/' });
    expect(elsewhere.headers.location).toBe(`/operator/automations/${id}?notice=claimed`);
    const mine = await browser.get('/operator?assigned=me');
    expect(mine.body).toContain(`/operator/automations/${id}`);
    expect(mine.body).toContain('Assigned to you');
    expect(await audit(id)).toEqual(['automation.claim', 'automation.claim']);
  });

  it('reveals the input on the page it answers, once, and records it', async () => {
    const { id } = await queued();
    const page = await browser.get(`/operator/automations/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(`>${EDD_INPUT.officer_ssn_last4}<`);
    const revealed = await browser.post(`/operator/automations/${id}/reveal`, {});
    expect(revealed.statusCode).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    expect(revealed.body).toContain(`>${EDD_INPUT.officer_ssn_last4}<`);
    expect((await browser.get(`/operator/automations/${id}`)).body).not.toContain(`>${EDD_INPUT.officer_ssn_last4}<`);
    expect(await audit(id)).toEqual(['automation.reveal_input']);
  });

  it("shows the outcome form's mistakes next to their fields (422) and completes with a multipart upload", async () => {
    const { owner, task, id } = await queued();
    await browser.get(`/operator/automations/${id}`);
    const wrong = await browser.postMultipart(
      `/operator/automations/${id}/complete`,
      {
        account_data_0: '',
        date_effective_date: '2026-02-30',
        login_username: 'only-a-username',
        login_password: '',
      },
      { field: 'document', name: 'notes.txt', bytes: Buffer.from('plain text') },
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain('id="f-account_data_0-error"');
    expect(wrong.body).toContain('id="f-date_effective_date-error"');
    expect(wrong.body).toContain('id="f-login_password-error"');
    expect(wrong.body).toContain('The file is not a PDF');
    expect(wrong.body).toContain('value="only-a-username"');
    expect(await audit(id)).toEqual([]);

    const done = await browser.postMultipart(
      `/operator/automations/${id}/complete`,
      { account_data_0: '1234567890', account_data_1: '' },
      { field: 'document', name: 'edd.pdf', bytes: tinyPdf('pages upload') },
    );
    expect(done.statusCode, done.body.slice(0, 300)).toBe(303);
    expect(done.headers.location).toBe(`/operator/automations/${id}?notice=completed`);
    expect((await owner.state(task.id)).status).toBe('complete');
    const page = await browser.get(done.headers.location as string);
    expect(page.body).toContain('The automation is complete');
    expect(page.body).not.toContain('Complete the automation</button>');
    // The automation moved on: an action on it now shows the page with the reason, 409.
    const late = await browser.post(`/operator/automations/${id}/cancel`, { reason: 'too late' });
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('class="notice error"');
    expect(await audit(id)).toEqual(['automation.complete']);
  });

  it('refuses an upload over MAIL_MAX_BYTES with a page (413), and unknown automations with a 404 page', async () => {
    const { id } = await queued();
    await browser.get(`/operator/automations/${id}`);
    const huge = await browser.postMultipart(
      `/operator/automations/${id}/complete`,
      { account_data_0: '1' },
      { field: 'document', name: 'big.pdf', bytes: Buffer.concat([tinyPdf('x'), Buffer.alloc(f.t.config.mailMaxBytes + SLACK + 1)]) },
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toContain('text/html');
    expect(huge.body).toContain('That was too large');
    const unknown = await browser.get('/operator/automations/aut_unknown');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    const badFilter = await browser.get('/operator?status=nonsense');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.headers['content-type']).toContain('text/html');
  });
});
