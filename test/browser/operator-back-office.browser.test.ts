/**
 * The operator back office in a real browser (Debian's chromium, headless), used like an operator would:
 * sign in, the work queue, claim, the automation's page, reveal the input, record the outcome with a PDF
 * upload, send it back to the owner, cancel. No connector is configured, so every automation waits on a
 * person. The flows run under the pages' real Content-Security-Policy; the accessibility checks (axe-core is
 * evaluated in the page) bypass it. Screenshots go to test-output/screenshots/operator-*.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAuditModule } from '../../src/modules/audit/index.js';
import { createOperatorsModule } from '../../src/modules/operators/index.js';
import { bearer, json, signupWithToken } from '../helpers/app.js';
import { EDD, EDD_INPUT, TEST_AUTOMATIONS } from '../helpers/automations.js';
import { createOperatorKey } from '../helpers/back-office.js';
import { externalRequests, openHostedLink } from '../helpers/browser.js';
import { heading, pathOf, useBrowserSuite } from '../helpers/browser-suite.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';
import { tinyPdf } from '../helpers/pdf.js';

describe('operator back office in a browser', { timeout: 240_000 }, () => {
  const suite = useBrowserSuite({ config: { automations: { ...TEST_AUTOMATIONS, sandbox: false } }, app: { jobs: true } });
  const { navigate, submitExpectingPage, whereIs } = suite;
  const { openPage, capture, shots } = createTaskPages(suite);
  let key: string;
  let business = 0;

  beforeAll(async () => {
    key = (await createOperatorKey(suite.t.db, 'Grace Hopper')).key;
  });

  /** A business with California employees whose payroll registration waits in the operator queue. */
  async function queuedAutomation() {
    const name = `Harbor Labs ${++business}`;
    const { entityId, token } = await signupWithToken(suite.t.app, suite.apiKey, {
      business_name: name,
      user_email: `owner${business}@harbor.example`,
    });
    const headers = bearer(token);
    expect(
      (
        await suite.t.app.inject({
          method: 'PUT',
          url: '/locations/CA',
          headers,
          payload: { config: { has_employees: true, has_physical_location: true } },
        })
      ).statusCode,
    ).toBe(200);
    const tasks = json<{ id: string; definition: { id: string } }[]>(await suite.t.app.inject({ url: '/tasks', headers }));
    const task = tasks.find((x) => x.definition.id === EDD)!;
    const started = await suite.t.app.inject({ method: 'POST', url: `/tasks/${task.id}/automate`, headers, payload: EDD_INPUT });
    expect(started.statusCode, started.body).toBe(201);
    const automation = async () =>
      json<{ status: string; customer_message: string | null; status_reason: string | null }>(
        await suite.t.app.inject({ url: `/tasks/${task.id}/automation`, headers }),
      );
    return { name, entityId, headers, taskId: task.id, automationId: json<{ id: string }>(started).id, automation };
  }

  async function signInWithKey(page: Page) {
    await page.goto(`${suite.t.baseUrl}/operator/sign-in`, { waitUntil: 'load' });
    await page.getByLabel('Operator key').fill(key);
    await navigate(page, () => page.getByRole('button', { name: 'Sign in' }).click(), '/operator');
    expect(await heading(page)).toBe('Work queue');
  }

  it('sign in → queue → claim → detail → reveal (audited) → complete with a PDF upload: the task is done', async () => {
    const a = await queuedAutomation();
    const { page, requests } = await openPage();
    await signInWithKey(page);
    const item = page.locator('li.queue-item', { hasText: a.name });
    expect(await item.locator('.badge').textContent()).toBe('started');
    expect(await item.textContent()).toContain('Unassigned');

    await navigate(page, () => item.getByRole('button', { name: /^Claim/ }).click(), '/operator');
    expect(await page.locator('.notice').textContent()).toContain('assigned to you');
    expect(await page.locator('li.queue-item', { hasText: a.name }).textContent()).toContain('Assigned to you');

    await navigate(
      page,
      () => page.locator('li.queue-item', { hasText: a.name }).getByRole('link').click(),
      `/operator/automations/${a.automationId}`,
    );
    expect(await page.locator('.summary').first().textContent()).toContain(a.name);
    expect(await page.getByRole('heading', { name: 'Why it applies' }).isVisible()).toBe(true);
    expect(await page.locator('section[aria-labelledby="why-h"] li').count()).toBeGreaterThan(0);
    expect(await page.locator('section[aria-labelledby="links-h"] a').count()).toBeGreaterThan(0);
    const inputText = await page.locator('section[aria-labelledby="input-h"]').textContent();
    expect(inputText).not.toContain(EDD_INPUT.officer_ssn_last4);

    await navigate(
      page,
      () => page.getByRole('button', { name: 'Reveal sensitive fields' }).click(),
      `/operator/automations/${a.automationId}/reveal`,
    );
    expect(await page.locator('section[aria-labelledby="input-h"]').textContent()).toContain(EDD_INPUT.officer_ssn_last4);
    const trail = json<{ events: { action: string; operator: { name: string } }[] }>(
      await suite.t.app.inject({ url: `/operator/v1/audit-events?subject_id=${a.automationId}`, headers: bearer(key) }),
    );
    expect(trail.events.map((e) => e.action)).toEqual(['automation.reveal_input', 'automation.claim']);
    expect(trail.events[0]!.operator.name).toBe('Grace Hopper');

    // The outcome: the account number, a login, the confirmation PDF.
    await page.getByLabel('Withholding account number').fill('9876543210');
    await page.getByLabel('Username').fill('harbor-edd');
    await page.getByLabel('Password').fill('Edd-pass-2!');
    await page.getByLabel('Effective date').fill('2026-11-20');
    await page.setInputFiles('#f-document', {
      name: 'edd-confirmation.pdf',
      mimeType: 'application/pdf',
      buffer: tinyPdf('browser upload'),
    });
    await navigate(
      page,
      () => page.getByRole('button', { name: 'Complete the automation' }).click(),
      `/operator/automations/${a.automationId}`,
    );
    expect(await page.locator('.notice').textContent(), await whereIs(page)).toContain('The automation is complete');
    expect(await page.locator('section[aria-labelledby="outputs-h"]').textContent()).toContain('9876543210');

    expect((await a.automation()).status).toBe('complete');
    const task = json<{ status: string }>(await suite.t.app.inject({ url: `/tasks/${a.taskId}`, headers: a.headers }));
    expect(task.status).toBe('done');
    // The uploaded PDF is the entity's confirmation document, in the platform's mail listing and the operator's.
    const documentId = json<{ outputs: { document_id: string } }>(
      await suite.t.app.inject({ url: `/tasks/${a.taskId}/automation`, headers: a.headers }),
    ).outputs.document_id;
    const mail = json<{ id: string }[]>(await suite.t.app.inject({ url: '/mail', headers: a.headers }));
    expect(mail.map((m) => m.id)).toContain(documentId);
    const operatorMail = json<{ id: string; file_name: string | null }[]>(
      await suite.t.app.inject({ url: `/operator/v1/legal_entities/${a.entityId}/mail`, headers: bearer(key) }),
    );
    expect(operatorMail.find((m) => m.id === documentId)?.file_name).toBe('edd-confirmation.pdf');
    expect(externalRequests(requests)).toEqual([]);
  });

  it('a one-time link signs in; send back to the business owner with a message', async () => {
    const a = await queuedAutomation();
    const link = await createOperatorsModule({
      db: suite.t.db,
      audit: createAuditModule({ db: suite.t.db }).audit,
      publicBaseUrl: suite.t.baseUrl,
    }).sessions.issueLink('Grace Hopper');
    const { page } = await openPage();
    // The link's page names whom it signs in; its button signs in and lands on the work queue.
    await openHostedLink(page, link.url);
    expect(pathOf(page)).toBe('/operator');
    expect(await page.locator('.sign-out').textContent()).toContain('Signed in as Grace Hopper');
    await page.goto(`${suite.t.baseUrl}/operator/automations/${a.automationId}`, { waitUntil: 'load' });

    const empty = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Send back to the owner' }).click());
    expect(empty.status()).toBe(422);
    expect(await page.locator('#f-message-error').textContent()).toContain('Write a few words');
    expect(await page.locator('#f-message').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('What the owner needs to answer').fill('Which date was the first California payroll, exactly?');
    await navigate(
      page,
      () => page.getByRole('button', { name: 'Send back to the owner' }).click(),
      `/operator/automations/${a.automationId}`,
    );
    expect(await page.locator('.notice').textContent()).toContain('Sent back to the business owner');
    const state = await a.automation();
    expect(state).toMatchObject({
      status: 'waiting_on_customer_response',
      customer_message: 'Which date was the first California payroll, exactly?',
    });
  });

  it('cancel with a reason (the reason is required)', async () => {
    const a = await queuedAutomation();
    const { page } = await openPage();
    await signInWithKey(page);
    await page.goto(`${suite.t.baseUrl}/operator/automations/${a.automationId}`, { waitUntil: 'load' });
    const empty = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Cancel the automation' }).click());
    expect(empty.status()).toBe(422);
    expect(await page.locator('#f-reason-error').isVisible()).toBe(true);
    await page.getByLabel('Reason').fill('The business registered with EDD itself');
    await navigate(
      page,
      () => page.getByRole('button', { name: 'Cancel the automation' }).click(),
      `/operator/automations/${a.automationId}`,
    );
    expect(await page.locator('.notice').textContent()).toContain('canceled');
    expect(await page.getByRole('button', { name: 'Complete the automation' }).count()).toBe(0);
    expect((await a.automation()).status).toBe('canceled');
    // Signed out, the pages send the browser back to the sign-in form.
    await navigate(page, () => page.getByRole('button', { name: 'Sign out' }).click(), '/operator/sign-in');
    await page.goto(`${suite.t.baseUrl}/operator`, { waitUntil: 'load' });
    expect(pathOf(page)).toBe('/operator/sign-in');
  });

  it('every page is accessible (axe) and fits a phone without sideways scrolling', async () => {
    const a = await queuedAutomation();
    const { page } = await openPage({ a11y: true });
    await page.goto(`${suite.t.baseUrl}/operator/sign-in`, { waitUntil: 'load' });
    await capture(page, 'operator-sign-in');
    const wrong = await submitExpectingPage(page, async () => {
      await page.getByLabel('Operator key').fill('sh_op_wrong');
      await page.getByRole('button', { name: 'Sign in' }).click();
    });
    expect(wrong.status()).toBe(401);
    await capture(page, 'operator-sign-in-error');
    await signInWithKey(page);
    await capture(page, 'operator-queue');
    await page.goto(`${suite.t.baseUrl}/operator/automations/${a.automationId}`, { waitUntil: 'load' });
    await capture(page, 'operator-automation');
    const errors = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Complete the automation' }).click());
    expect(errors.status()).toBe(422);
    expect(await page.locator('#f-account_data_0-error').isVisible()).toBe(true);
    expect(await page.locator('#f-document-error').isVisible()).toBe(true);
    await capture(page, 'operator-automation-errors');
    await navigate(
      page,
      () => page.getByRole('button', { name: 'Reveal sensitive fields' }).click(),
      `/operator/automations/${a.automationId}/reveal`,
    );
    await capture(page, 'operator-automation-revealed');
    expect(shots.length).toBeGreaterThan(0);
  });
});
