import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, CURRENT_API_VERSION } from '../src/http/api-versions.js';
import { bearer, createPlatform, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';

// Dated API versions (docs/versions.md): the Statehouse-Version header, each platform's pin, the echo, the refusals.
const HEADER = 'statehouse-version';
/** A pin no request could ask for: written straight to the row, so an echo of it can only come from the pin. */
const OLD_PIN = '2025-01-01';

describe('Statehouse-Version', () => {
  let t: TestApp;
  let apiKey: string;
  let token: string;
  let platformId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, token, platformId } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t.close());

  it('pins a platform to the current version when its first key is made, and a later key keeps the pin', async () => {
    const created = await createPlatform(t.db, 'Pinned Payroll');
    const pinOf = async () =>
      (await t.db.selectFrom('platforms').select('api_version').where('id', '=', created.platformId).executeTakeFirstOrThrow()).api_version;
    expect(await pinOf()).toBe(CURRENT_API_VERSION);
    await sql`update platforms set api_version = ${OLD_PIN} where id = ${created.platformId}`.execute(t.db);
    await created.service.rotateKey(created.platformId);
    expect(await pinOf()).toBe(OLD_PIN);
  });

  it('echoes the version on every answer: successes, errors, 404 and 405, with or without credentials', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/healthz' }),
      t.app.inject({ url: '/openapi.json' }),
      t.app.inject({ url: '/legal_entity', headers: bearer(token) }),
      t.app.inject({ url: '/v2/webhook_endpoints', headers: { authorization: apiKey } }),
      t.app.inject({ url: '/legal_entity' }), // 401
      t.app.inject({ url: '/v2/webhook_endpoints', headers: { authorization: 'sh_key_nope' } }), // 401
      t.app.inject({ url: '/no/such/path' }), // 404
      t.app.inject({ method: 'DELETE', url: '/legal_entity', headers: bearer(token) }), // 405
      t.app.inject({ method: 'POST', url: '/v2/webhook_endpoints', headers: { authorization: apiKey }, payload: { url: 7 } }), // 422
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 401, 401, 404, 405, 422]);
    for (const answer of answers) expect(answer.headers[HEADER]).toBe(CURRENT_API_VERSION);
  });

  it("answers under the platform's pin (API key and access token alike); the header overrides it for that request", async () => {
    await sql`update platforms set api_version = ${OLD_PIN} where id = ${platformId}`.execute(t.db);
    try {
      const withKey = await t.app.inject({ url: '/v2/webhook_endpoints', headers: { authorization: apiKey } });
      const withToken = await t.app.inject({ url: '/legal_entity', headers: bearer(token) });
      const notFound = await t.app.inject({ url: '/tasks/tsk_nope', headers: bearer(token) });
      expect([withKey, withToken, notFound].map((a) => [a.statusCode, a.headers[HEADER]])).toEqual([
        [200, OLD_PIN],
        [200, OLD_PIN],
        [404, OLD_PIN],
      ]);
      const overridden = await t.app.inject({ url: '/legal_entity', headers: { ...bearer(token), [HEADER]: CURRENT_API_VERSION } });
      expect(overridden.headers[HEADER]).toBe(CURRENT_API_VERSION);
      // The reference paths answer the same under every version.
      expect(json(overridden)).toEqual(json(withToken));
      // Another platform's pin is its own.
      const other = await createPlatformWithEntity(t, 'Other Payroll');
      expect((await t.app.inject({ url: '/legal_entity', headers: bearer(other.token) })).headers[HEADER]).toBe(CURRENT_API_VERSION);
    } finally {
      await sql`update platforms set api_version = ${CURRENT_API_VERSION} where id = ${platformId}`.execute(t.db);
    }
  });

  it('refuses a malformed or unknown version with a 400 naming the known versions, before credentials are checked', async () => {
    const known = `Known versions: ${API_VERSIONS.map((v) => v.version).join(', ')}.`;
    for (const [value, message] of [
      ['yesterday', 'Statehouse-Version must be a date, YYYY-MM-DD.'],
      ['2026-11-28T00:00:00Z', 'Statehouse-Version must be a date, YYYY-MM-DD.'],
      ['2020-01-01', "Unknown Statehouse-Version '2020-01-01'."],
    ]) {
      for (const headers of [{ [HEADER]: value }, { [HEADER]: value, ...bearer(token) }]) {
        const answer = await t.app.inject({ url: '/legal_entity', headers });
        expect(answer.statusCode).toBe(400);
        expect(json(answer)).toEqual({ detail: `${message} ${known}` });
        expect(answer.headers[HEADER]).toBe(CURRENT_API_VERSION);
      }
    }
    // Two headers arrive joined ("a, b"): not one date.
    const twice = await t.app.inject({ url: '/healthz', headers: { [HEADER]: [CURRENT_API_VERSION, CURRENT_API_VERSION] } });
    expect(twice.statusCode).toBe(400);
    expect(json(twice).detail).toContain('Statehouse-Version must be a date');
  });

  it('names the current dated version in /openapi.json beside the package version, and documents the header once', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info['x-api-version']).toBe(CURRENT_API_VERSION);
    expect(doc.components.parameters.StatehouseVersion).toMatchObject({
      name: HEADER,
      in: 'header',
      required: false,
      schema: { type: 'string', enum: API_VERSIONS.map((v) => v.version) },
    });
    expect(doc.components.headers.StatehouseVersion.schema.enum).toEqual(API_VERSIONS.map((v) => v.version));
  });
});
