/**
 * The hosted handbook builder over HTTP, as the owner walks it: employee counts, questions (validation keeps
 * what was typed), optional policies, employees, publishing version 1 then 2 (never losing version 1), the
 * acknowledgement stats moving signed → outdated, each employee's link scoped to that employee and version, the
 * signed PDF link (works, expires, refuses a forgery), and the events of a publication and an acknowledgement.
 */
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import {
  ackLinks,
  answerAllQuestions,
  handbookSummary,
  HANDBOOK_CATALOG,
  openBuilder,
  publish,
  questionFields,
  validAnswer,
} from './helpers/handbook.js';
import type { HostedBrowser } from './helpers/hosted.js';
import { waitUntil } from './helpers/wait.js';

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('handbook builder', () => {
  let t: TestApp;
  let token: string;
  let apiKey: string;
  let platformId: string;
  let entityId: string;
  let browser: HostedBrowser;

  beforeAll(async () => {
    // A short download-link life, so the clock moved past it leaves the access token valid.
    t = await createTestApp({ fileUrlTtlSeconds: 60 });
    ({ token, platformId, entityId, apiKey } = await createPlatformWithEntity(t, 'Acme Payroll', { business_name: 'Harbor Labs' }));
    // California with an unknown employee count: the builder asks for it.
    const put = await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: true } },
    });
    expect(put.statusCode, put.body).toBe(200);
    browser = await openBuilder(t.app, token);
  });
  afterAll(async () => t?.close());

  const ack = (url: string, form?: Record<string, string>) =>
    form
      ? t.app.inject({
          method: 'POST',
          url: path(url),
          payload: new URLSearchParams(form).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      : t.app.inject({ url: path(url) });

  it('starts by asking for the missing employee count; a bad count keeps what was typed', async () => {
    const start = await browser.get('/hosted/handbook');
    expect(start.body).toContain('Acme Payroll');
    expect(start.body).toContain('Say how many employees you have in California.');
    const states = await browser.get('/hosted/handbook/states');
    expect(states.body).toContain('Employees in California');
    const bad = await browser.post('/hosted/handbook/states', { count_CA: 'twelve' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Enter a whole number of employees, 1 or more.');
    expect(bad.body).toContain('value="twelve"');
    const ok = await browser.post('/hosted/handbook/states', { count_CA: '16' });
    expect(ok.statusCode).toBe(303);
    // Stored on the location itself, where planning sees it too.
    const locations = json(await t.app.inject({ url: '/locations', headers: bearer(token) }));
    expect(locations[0].config).toMatchObject({ has_employees: true, employee_count: 16 });
  });

  it('questions: a blank or invalid answer is refused with a message, and every typed value stays', async () => {
    const page = await browser.get('/hosted/handbook/questions');
    const fields = questionFields(page.body);
    // The federal equal-employment policy (16 employees ≥ 15) uses the HR contact.
    expect(fields).toContain('q_hr-contact');
    const form = Object.fromEntries(fields.map((f) => [f, '']));
    form['q_offers-paid-vacation'] = 'true';
    const res = await browser.post('/hosted/handbook/questions', form);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Enter an answer.');
    expect(res.body).toMatch(/<input type="radio" name="q_offers-paid-vacation" value="true" checked>/);
    expect(json(await t.app.inject({ url: '/v2/handbook', headers: bearer(token) })).publishable).toBe(false);
  });

  it('answering brings in the questions of the policies it adopts; then the builder moves on to the policies', async () => {
    // Paid vacation = yes brings in a follow-up question: the owner stays on the page and is told which.
    const first = questionFields((await browser.get('/hosted/handbook/questions')).body);
    const form = Object.fromEntries(first.map((f) => [f, validAnswer(HANDBOOK_CATALOG.questions.get(f.slice(2))!)]));
    form['q_offers-paid-vacation'] = 'true';
    const saved = await browser.post('/hosted/handbook/questions', form);
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/hosted/handbook/questions?followups=1');
    const again = await browser.get(saved.headers.location as string);
    expect(again.body).toMatch(/Your answers added (a follow-up question|\d+ follow-up questions): /);
    expect(questionFields(again.body)).toContain('q_vacation-days');
    expect(
      again.body.slice(again.body.indexOf('Your answers added'), again.body.indexOf('</div>', again.body.indexOf('Your answers added'))),
    ).toContain('paid vacation');
    await answerAllQuestions(browser, {
      'offers-paid-vacation': 'true',
      'vacation-days': '15',
      'hr-contact': 'Dana Reyes, people@harbor.example',
    });
    const policies = await browser.get('/hosted/handbook/policies');
    expect(policies.statusCode).toBe(200);
    expect(policies.body).toContain('Equal employment opportunity');
    expect(policies.body).toContain('Dana Reyes, people@harbor.example');
    expect(policies.body).toContain('earn 15 days of paid vacation');
    const summary = await handbookSummary(t.app, token);
    expect(summary.publishable).toBe(true);
    expect(summary.has_published).toBe(false);
  });

  it('optional policies: each must be included or skipped', async () => {
    const optional = [...HANDBOOK_CATALOG.policies].filter((p) => p.adoption === 'optional');
    const page = await browser.get('/hosted/handbook/policies');
    const shown = optional.filter((p) => page.body.includes(`name="policy_${p.id}"`));
    expect(shown.map((p) => p.id)).toContain('us-paid-vacation');
    const bad = await browser.post('/hosted/handbook/policies', { policy_unknown: 'adopt' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Choose whether to include “Paid vacation”.');
    const ok = await browser.post('/hosted/handbook/policies', Object.fromEntries(shown.map((p) => [`policy_${p.id}`, 'adopt'])));
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/hosted/handbook/employees');
  });

  it('employees: a bad e-mail is refused with the typed values kept; add, edit, remove', async () => {
    const bad = await browser.post('/hosted/handbook/employees', { name: 'Ana Lopez', email: 'ana@' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Enter an e-mail address like name@example.com');
    expect(bad.body).toContain('value="Ana Lopez"');
    expect(bad.body).toContain('value="ana@"');
    expect((await browser.post('/hosted/handbook/employees', { name: '', email: '' })).body).toContain(
      'Enter the employee&#39;s full name.',
    );
    for (const [name, email] of [
      ['Ana Lopez', 'ana@harbor.example'],
      ['Ben Okafor', ''],
      ['Cy Temp', 'cy@harbor.example'],
    ]) {
      expect((await browser.post('/hosted/handbook/employees', { name: name!, email: email! })).statusCode).toBe(303);
    }
    // The notice names who was added.
    const added = await browser.post('/hosted/handbook/employees', {
      name: 'Maria García-López',
      email: 'maria.garcia-lopez.long.address.for.wrapping@harbor-labs-employees.example',
    });
    const addedPage = await browser.get(added.headers.location as string);
    expect(addedPage.body).toContain('Maria García-López added.');
    // The same address (any case) as an active employee is refused, keeping what was typed.
    const dup = await browser.post('/hosted/handbook/employees', { name: 'Ana Twin', email: 'ANA@Harbor.example' });
    expect(dup.statusCode).toBe(422);
    expect(dup.body).toContain('Ana Lopez already has this e-mail address.');
    expect(dup.body).toContain('value="Ana Twin"');
    expect(dup.body).toContain('value="ANA@Harbor.example"');
    const list = await browser.get('/hosted/handbook/employees');
    const mariaId = /href="\/hosted\/handbook\/employees\/(emp_[a-z0-9]+)\/edit">Edit Maria/.exec(list.body)![1];
    const dupEdit = await browser.post(`/hosted/handbook/employees/${mariaId}`, { name: 'Maria García-López', email: 'cy@harbor.example' });
    expect(dupEdit.statusCode).toBe(422);
    expect(dupEdit.body).toContain('Cy Temp already has this e-mail address.');
    expect(dupEdit.body).toContain('value="cy@harbor.example"');
    const removedMaria = await browser.post(`/hosted/handbook/employees/${mariaId}/remove`, {});
    expect((await browser.get(removedMaria.headers.location as string)).body).toContain('Maria García-López removed.');
    const cyId = /action="\/hosted\/handbook\/employees\/(emp_[a-z0-9]+)\/remove"[^>]*>.{0,200}Remove Cy Temp/s.exec(list.body)?.[1];
    expect(cyId).toBeTruthy();
    expect((await browser.post(`/hosted/handbook/employees/${cyId}/remove`, {})).statusCode).toBe(303);
    const benId = /href="\/hosted\/handbook\/employees\/(emp_[a-z0-9]+)\/edit">Edit Ben Okafor/.exec(list.body)?.[1];
    await browser.get(`/hosted/handbook/employees/${benId}/edit`);
    expect((await browser.post(`/hosted/handbook/employees/${benId}`, { name: 'Ben Okafor', email: 'not-an-email' })).statusCode).toBe(422);
    expect((await browser.post(`/hosted/handbook/employees/${benId}`, { name: 'Benjamin Okafor', email: '' })).statusCode).toBe(303);
    const after = await browser.get('/hosted/handbook/employees');
    expect(after.body).toContain('Benjamin Okafor');
    // A removed employee's address is free again.
    expect(after.body).not.toContain('Maria García-López');
    expect(after.body).not.toContain('Cy Temp');
  });

  it('publishes version 1: stats count every active employee, links per employee, the PDF holds the policies', async () => {
    const events0 = await eventsOf('handbook.published');
    await publish(browser);
    const summary = await handbookSummary(t.app, token);
    expect(summary).toMatchObject({
      has_published: true,
      acknowledgement_stats: { signed: 0, outdated: 0, pending: 1, missing_emails: 1 },
    });
    expect(summary.summary.acknowledgement_stats).toEqual(summary.acknowledgement_stats);
    const published = await browser.get('/hosted/handbook/published');
    expect(published.body).toContain('Version 1 is published');
    expect(published.body).toContain('mailto:ana%40harbor.example');
    const pdfUrl = /href="(http:\/\/statehouse\.test\/files\/handbook\/[^"]+)"/.exec(published.body)![1]!.replace(/&amp;/g, '&');
    const pdf = await t.app.inject({ url: path(pdfUrl) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await new PDFParse({ data: new Uint8Array(pdf.rawPayload) }).getText()).text;
    expect(text).toContain('Harbor Labs employee handbook');
    expect(text).toContain('Equal employment opportunity');
    expect(text).toContain('Paid vacation');
    // GET /v2/events lists an event once no older transaction is still running (docs/events.md): wait for it.
    const events = await waitUntil(async () => {
      const e = await eventsOf('handbook.published');
      return e.length > events0.length && e;
    }, 'handbook.published listed');
    expect(events.length).toBe(events0.length + 1);
    expect(events.at(-1)).toMatchObject({ legal_entity_id: entityId, data: { object: { version: 1, regions: ['CA'] } } });
    expect(events.at(-1)!.data.object.policies).toContain('us-equal-employment-opportunity');
  });

  it('nothing changed since the latest version: the review offers no publishing, and a POST is refused and writes nothing', async () => {
    const review = await browser.get('/hosted/handbook/publish');
    expect(review.body).toContain('Nothing has changed since version 1');
    expect(review.body).not.toContain('Publish version 2');
    const refused = await browser.post('/hosted/handbook/publish', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Nothing has changed since version 1');
    const versions = await t.db.selectFrom('handbook_versions').select(['number']).where('legal_entity_id', '=', entityId).execute();
    expect(versions).toHaveLength(1);
    // Wording: the home's button reads naturally, and the e-mail hint does not promise an e-mail.
    expect((await browser.get('/hosted/handbook')).body).toMatch(/class="button" href="\/hosted\/handbook\/[a-z]+">Continue: /);
    expect((await browser.get('/hosted/handbook/employees')).body).toContain('Nothing is e-mailed for you');
  });

  it('a PDF link expires, and a changed one is refused', async () => {
    const published = await browser.get('/hosted/handbook/published');
    const pdfUrl = /href="(http:\/\/statehouse\.test\/files\/handbook\/[^"]+)"/.exec(published.body)![1]!.replace(/&amp;/g, '&');
    const forged = pdfUrl.replace(/expires=(\d+)/, (_m, n: string) => `expires=${Number(n) + 60}`);
    expect((await t.app.inject({ url: path(forged) })).statusCode).toBe(404);
    const otherEntity = pdfUrl.replace(entityId, 'le_someoneelse');
    expect((await t.app.inject({ url: path(otherEntity) })).statusCode).toBe(404);
    t.advance((t.config.fileUrlTtlSeconds + 1) * 1000);
    const expired = await t.app.inject({ url: path(pdfUrl) });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This download link has expired');
  });

  it('an employee acknowledges through their own link; opening it changes nothing; a blank name is refused', async () => {
    const links = await ackLinks(browser);
    expect([...links.keys()].sort()).toEqual(['Ana Lopez', 'Benjamin Okafor']);
    const ana = links.get('Ana Lopez')!;
    const opened = await ack(ana);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Hello Ana Lopez');
    expect(opened.body).toContain('Equal employment opportunity');
    expect((await handbookSummary(t.app, token)).acknowledgement_stats.signed).toBe(0);
    // The form posts back to the link with a fragment, so a refused form reloads on the form and its error summary.
    expect(opened.body).toContain(`action="${path(ana)}#acknowledge"`);
    const blank = await ack(ana, { typed_name: '  ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('Type your full name to acknowledge.');
    expect(blank.body).toMatch(/<section id="acknowledge"[^>]*>.*class="error-summary" role="alert" tabindex="-1"/s);
    const done = await ack(ana, { typed_name: 'Ana Lopez' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(path(ana));
    expect((await ack(ana)).body).toContain('you acknowledged this version');
    expect((await handbookSummary(t.app, token)).acknowledgement_stats).toEqual({ signed: 1, outdated: 0, pending: 0, missing_emails: 1 });
    const events = await waitUntil(async () => {
      const e = await eventsOf('handbook.acknowledged');
      return e.length > 0 && e;
    }, 'handbook.acknowledged listed');
    expect(events.at(-1)).toMatchObject({ data: { object: { version: 1 } } });
  });

  it('version 2 keeps version 1; earlier acknowledgements become outdated and the old link says a newer version exists', async () => {
    const v1Links = await ackLinks(browser);
    // A changed answer gives version 2 new content (an unchanged draft is not published again).
    await answerAllQuestions(browser, {
      'offers-paid-vacation': 'true',
      'vacation-days': '20',
      'hr-contact': 'Dana Reyes, people@harbor.example',
    });
    expect((await browser.get('/hosted/handbook/publish')).body).toContain('Publish version 2');
    await publish(browser);
    const summary = await handbookSummary(t.app, token);
    expect(summary.acknowledgement_stats).toEqual({ signed: 0, outdated: 1, pending: 0, missing_emails: 1 });
    expect((await browser.get('/hosted/handbook/published')).body).toContain('Version 2 is published');
    const v1 = v1Links.get('Benjamin Okafor')!;
    const old = await ack(v1);
    expect(old.body).toContain('A newer version of this handbook exists');
    expect(old.body).not.toContain('I have read and acknowledge');
    expect((await ack(v1, { typed_name: 'Benjamin Okafor' })).statusCode).toBe(409);
    const v2Links = await ackLinks(browser);
    expect(v2Links.get('Ana Lopez')).not.toBe(v1Links.get('Ana Lopez'));
    expect((await ack(v2Links.get('Ana Lopez')!, { typed_name: 'Ana Lopez' })).statusCode).toBe(303);
    expect((await handbookSummary(t.app, token)).acknowledgement_stats).toEqual({ signed: 1, outdated: 0, pending: 0, missing_emails: 1 });
    // Both versions are kept as published.
    const versions = await t.db
      .selectFrom('handbook_versions')
      .select(['number'])
      .where('legal_entity_id', '=', entityId)
      .orderBy('number')
      .execute();
    expect(versions.map((v) => v.number)).toEqual([1, 2]);
    await expect(
      t.db
        .updateTable('handbook_versions')
        .set({ regions: [] } as never)
        .where('legal_entity_id', '=', entityId)
        .execute(),
    ).rejects.toThrow(/immutable/);
  });

  it('a link works only for its employee, version and entity: a made-up or altered token, or a removed employee, is refused', async () => {
    const links = await ackLinks(browser);
    const ben = links.get('Benjamin Okafor')!;
    expect((await ack(`${ben}x`)).statusCode).toBe(404);
    expect((await ack(ben.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).statusCode).toBe(404);
    // Another entity's owner publishes; its link does not open this entity's handbook, nor the reverse.
    const other = await createPlatformWithEntity(t, 'Other Platform', { business_name: 'Elsewhere Co' });
    await t.app.inject({ method: 'PUT', url: '/v2/regions/NY', headers: bearer(other.token), payload: { employee_count: 2 } });
    const otherBrowser = await openBuilder(t.app, other.token);
    await answerAllQuestions(otherBrowser);
    await otherBrowser.post('/hosted/handbook/employees', { name: 'Zoe Other', email: 'zoe@elsewhere.example' });
    await publish(otherBrowser);
    const zoe = (await ackLinks(otherBrowser)).get('Zoe Other')!;
    const page = await ack(zoe);
    expect(page.body).toContain('Elsewhere Co employee handbook');
    expect(page.body).not.toContain('Harbor Labs');
    // Removing Ben ends his link.
    const list = await browser.get('/hosted/handbook/employees');
    const benId = /href="\/hosted\/handbook\/employees\/(emp_[a-z0-9]+)\/edit">Edit Benjamin Okafor/.exec(list.body)![1];
    await browser.post(`/hosted/handbook/employees/${benId}/remove`, {});
    const removed = await ack(ben);
    expect(removed.statusCode).toBe(410);
    expect((await ack(ben, { typed_name: 'Benjamin Okafor' })).statusCode).toBe(410);
    expect((await handbookSummary(t.app, token)).acknowledgement_stats).toEqual({ signed: 1, outdated: 0, pending: 0, missing_emails: 0 });
  });

  it('an employee added after publishing gets a link to the latest version at once', async () => {
    expect((await browser.post('/hosted/handbook/employees', { name: 'Cara Nguyen', email: 'cara@harbor.example' })).statusCode).toBe(303);
    const cara = (await ackLinks(browser)).get('Cara Nguyen')!;
    const page = await ack(cara);
    expect(page.body).toContain('I have read and acknowledge');
    expect(page.body).not.toContain('A newer version of this handbook exists');
    expect((await ack(cara, { typed_name: 'Cara Nguyen' })).statusCode).toBe(303);
    expect((await handbookSummary(t.app, token)).acknowledgement_stats).toEqual({ signed: 2, outdated: 0, pending: 0, missing_emails: 0 });
  });

  it('publishing is refused with the reason when the draft no longer qualifies, and nothing is written', async () => {
    // A new state with employees but no count: not publishable until the owner gives it.
    expect(
      (await t.app.inject({ method: 'PUT', url: '/locations/TX', headers: bearer(token), payload: { config: { has_employees: true } } }))
        .statusCode,
    ).toBe(200);
    await browser.get('/hosted/handbook/publish');
    const refused = await browser.post('/hosted/handbook/publish', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.body, refused.body.slice(refused.body.indexOf('<main'), refused.body.indexOf('<main') + 1500)).toContain(
      'Say how many employees you have in Texas.',
    );
    const versions = await t.db.selectFrom('handbook_versions').select(['number']).where('legal_entity_id', '=', entityId).execute();
    expect(versions).toHaveLength(2);
    expect((await handbookSummary(t.app, token)).publishable).toBe(false);
  });

  it('builder pages need the builder session; another purpose or none is refused', async () => {
    const res = await t.app.inject({ url: '/hosted/handbook' });
    expect(res.statusCode).toBe(401);
    const post = await t.app.inject({
      method: 'POST',
      url: '/hosted/handbook/publish',
      headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(post.statusCode).toBe(403);
    expect(platformId).toBeTruthy();
  });

  /** The entity's events of one type, as GET /v2/events lists them. */
  async function eventsOf(type: string) {
    const res = await t.app.inject({ url: `/v2/events?type=${type}&legal_entity_id=${entityId}`, headers: { authorization: apiKey } });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    return body as { legal_entity_id: string; data: { object: Record<string, unknown> & { policies?: string[] } } }[];
  }
});
