import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';

/** CSRF tokens are HMACs in base64url, like access tokens: only the exact spelling the page carries is accepted. */
describe('hosted form tokens have one spelling', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ token } = await createPlatformWithEntity(t));
    await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
  });
  afterAll(async () => t.close());

  it('look-alike encodings of a valid CSRF token are refused (403); the token itself works', async () => {
    const [task] = json<{ id: string }[]>(await t.app.inject({ url: '/tasks', headers: bearer(token) }));
    const link = json(
      await t.app.inject({
        method: 'POST',
        url: '/tasks/sessions',
        headers: bearer(token),
        payload: { callback_url: 'https://platform.example/back' },
      }),
    );
    const { browser } = await openLink(t.app, link.url);
    const page = await browser!.get('/hosted/tasks');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const mutants = [
      ...[1, 2, 3].map((bit) => `${csrf.slice(0, -1)}${alphabet[alphabet.indexOf(csrf.at(-1)!) ^ bit]}`), // spare bits of the last character
      `${csrf}=`,
      Buffer.from(csrf, 'base64url').toString('base64'),
    ].filter((m) => m !== csrf);
    for (const mutant of mutants) {
      expect(Buffer.from(mutant, 'base64url').equals(Buffer.from(csrf, 'base64url')) || mutant.includes('+') || mutant.includes('/')).toBe(
        true,
      );
      const res = await browser!.post(`/hosted/tasks/${task!.id}/status`, { status: 'done', return_to: '/hosted/tasks' }, { csrf: mutant });
      expect(res.statusCode, mutant).toBe(403);
    }
    const ok = await browser!.post(`/hosted/tasks/${task!.id}/status`, { status: 'done', return_to: '/hosted/tasks' }, { csrf });
    expect(ok.statusCode).toBe(303);
  });
});
