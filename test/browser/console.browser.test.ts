/**
 * The platform console in a real browser (Debian's chromium, headless), per role: the first admin's invitation
 * link → choose a password → create an API key → add a webhook endpoint → the event log (an entity signed up
 * with the new key); a developer and a read-only user sign in with the form and see what their role allows.
 * Every page axe-clean at desktop and phone width, nothing wider than the phone. Screenshots: test-output/screenshots/console-*.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ConsoleRole } from '../../src/modules/console/contract.js';
import { createPlatform, signupWithToken } from '../helpers/app.js';
import { checkAccessibility, describeViolations, externalRequests, screenshot, VIEWPORTS } from '../helpers/browser.js';
import { heading, useBrowserSuite } from '../helpers/browser-suite.js';
import { inviteLink, PASSWORD } from '../helpers/console.js';

describe('platform console in a browser', { timeout: 240_000 }, () => {
  const suite = useBrowserSuite();
  const { navigate } = suite;

  /** axe-clean at desktop and phone width, and nothing wider than the phone. */
  async function checkPage(page: Page, name: string) {
    for (const size of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await page.setViewportSize(size);
      const violations = await checkAccessibility(page);
      expect(violations, `${name} at ${size.width}px: ${describeViolations(violations)}`).toEqual([]);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await page.setViewportSize(VIEWPORTS.desktop);
  }

  /** A person of the platform with this role, through their invitation link (the browser is then signed in). */
  async function joinWithLink(page: Page, platformId: string, email: string, role: ConsoleRole) {
    const invite = await inviteLink(suite.t.db, platformId, email, role);
    await page.goto(invite.url.replace('http://statehouse.test', suite.t.baseUrl), { waitUntil: 'load' });
    expect(await heading(page)).toBe('Choose your password');
    await checkPage(page, 'invite');
    await page.locator('#f-password').fill(PASSWORD);
    await page.locator('#f-confirm').fill(PASSWORD);
    await navigate(page, () => page.getByRole('button', { name: 'Set password and sign in' }).click(), '/console');
  }

  async function signOutAndIn(page: Page, email: string) {
    await navigate(page, () => page.getByRole('button', { name: 'Sign out' }).click(), '/console/sign-in');
    await checkPage(page, 'sign-in');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await navigate(page, () => page.getByRole('button', { name: 'Sign in' }).click(), '/console');
    expect(await heading(page)).toBe('Your platform');
  }

  const open = (page: Page, label: string, path: string) =>
    navigate(page, () => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label }).click(), path);

  it('admin: invitation → create an API key → add a webhook endpoint → the event log', async () => {
    const { platformId } = await createPlatform(suite.t.db, 'Console Payroll');
    const { page, requests } = await suite.openPage();
    await joinWithLink(page, platformId, 'ada@console.example', 'admin');
    expect(await heading(page)).toBe('Your platform');
    await checkPage(page, 'home');
    await signOutAndIn(page, 'ada@console.example');

    await open(page, 'API keys', '/console/api-keys');
    await navigate(page, () => page.getByRole('button', { name: 'Create an API key' }).click(), '/console/api-keys');
    const key = (await page.locator('code.secret').textContent())!;
    expect(key).toMatch(/^sh_key_/);
    await checkPage(page, 'api-keys');
    await screenshot(page, 'console-api-keys');

    await open(page, 'Webhooks', '/console/webhooks');
    await page.getByLabel('Endpoint URL').fill('https://93.184.216.34/hooks/console');
    await navigate(page, () => page.getByRole('button', { name: 'Add endpoint' }).click(), '/console/webhooks');
    expect(await page.locator('code.secret').textContent()).toMatch(/^whsec_/);
    expect(await page.locator('ul.rows').textContent()).toContain('https://93.184.216.34/hooks/console');
    await checkPage(page, 'webhooks');
    await screenshot(page, 'console-webhooks');

    const { entityId } = await signupWithToken(suite.t.app, key, { business_name: 'Console Bakery' });
    await open(page, 'Events', '/console/events');
    await page.getByLabel('Legal entity id').fill(entityId);
    await navigate(page, () => page.getByRole('button', { name: 'Filter' }).click(), '/console/events');
    expect(await page.locator('ul.rows').textContent()).toContain('task.created');
    await checkPage(page, 'events');
    await screenshot(page, 'console-events');

    for (const [label, path] of [
      ['Request logs', '/console/request-logs'],
      ['Callback origins', '/console/callback-origins'],
      ['Branding', '/console/branding'],
      ['Users', '/console/users'],
      ['Audit', '/console/audit'],
    ] as const) {
      await open(page, label, path);
      await checkPage(page, label);
    }
    expect(await page.locator('ul.rows').textContent()).toContain('webhook_endpoint.create');
    await screenshot(page, 'console-audit');
    expect(externalRequests(requests)).toEqual([]);
  });

  it('developer and read-only: each sees only the actions of their role', async () => {
    const { platformId } = await createPlatform(suite.t.db, 'Roles Payroll');
    for (const [role, canWebhooks] of [
      ['developer', true],
      ['read_only', false],
    ] as const) {
      const { page } = await suite.openPage();
      const email = `${role}@roles.example`;
      await joinWithLink(page, platformId, email, role);
      await signOutAndIn(page, email);
      await open(page, 'API keys', '/console/api-keys');
      expect(await page.getByRole('button', { name: 'Create an API key' }).count()).toBe(0);
      await checkPage(page, `api-keys ${role}`);
      await open(page, 'Webhooks', '/console/webhooks');
      expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(canWebhooks ? 1 : 0);
      await checkPage(page, `webhooks ${role}`);
      await open(page, 'Users', '/console/users');
      expect(await page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
      await screenshot(page, `console-users-${role}`);
    }
  });
});
