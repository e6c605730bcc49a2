import { describe, expect, it } from 'vitest';
import { checkAccessibility, describeViolations, screenshot } from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';

describe('GET / in a browser', () => {
  const suite = useBrowserSuite();

  it('names Statehouse and leads to the API reference, the OpenAPI document and the probes; accessible', async () => {
    const { page } = await suite.openPage();
    const res = await page.goto(`${suite.t.baseUrl}/`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Statehouse');
    for (const [name, path] of [
      ['API reference', '/docs'],
      ['OpenAPI document', '/openapi.json'],
      ['Health', '/healthz'],
      ['readiness', '/readyz'],
    ] as const) {
      await expect(page.getByRole('link', { name, exact: true }).getAttribute('href')).resolves.toBe(path);
    }
    expect(describeViolations(await checkAccessibility(page))).toBe('');
    await screenshot(page, 'home');
    // Every link it shows answers.
    await page.getByRole('link', { name: 'OpenAPI document' }).click();
    await page.waitForURL(/\/openapi\.json$/);
    await page.goBack();
    await page.getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(/\/docs\/?/);
    await expect(
      page
        .locator('.swagger-ui')
        .first()
        .waitFor()
        .then(() => true),
    ).resolves.toBe(true);
  });
});
