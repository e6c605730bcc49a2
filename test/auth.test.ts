import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishSignup, openLink } from './helpers/hosted.js';
import { accessToken, bearer, createPlatform, createTestApp, json, signupEntity, type TestApp } from './helpers/app.js';

describe('access tokens', () => {
  let t: TestApp;
  let apiKey: string;
  let entityId: string;

  beforeAll(async () => {
    t = await createTestApp({ accessTokenTtlSeconds: 5 });
    ({ apiKey } = await createPlatform(t.db));
    entityId = await signupEntity(t.app, apiKey);
  });
  afterAll(async () => t.close());

  it.each(['/accounts/auth', '/v2/auth'])('%s returns {access_token, token_type, state} for an inactive entity', async (url) => {
    const res = await t.app.inject({ method: 'POST', url, headers: { authorization: apiKey }, payload: { legal_entity_id: entityId } });
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 5 });
    expect(body.access_token).toMatch(/^sh_at_/);
    expect(body.state).toMatchObject({
      legal_entity_status: 'inactive',
      signup_complete: false,
      signup_url: expect.stringMatching(/^http:\/\/statehouse\.test\/hosted\/s\//),
    });
    // The signup link in state is real: it opens the hosted signup page.
    const { response: page } = await openLink(t.app, body.state.signup_url);
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/hosted/signup');
  });

  it('state says signup is complete once the user finished it', async () => {
    const id = await signupEntity(t.app, apiKey);
    const state = json(
      await t.app.inject({ method: 'POST', url: '/v2/auth', headers: { authorization: apiKey }, payload: { legal_entity_id: id } }),
    ).state;
    expect((await finishSignup(t.app, state.signup_url)).statusCode).toBe(200);
    const after = json(
      await t.app.inject({ method: 'POST', url: '/v2/auth', headers: { authorization: apiKey }, payload: { legal_entity_id: id } }),
    ).state;
    expect(after).toEqual({ legal_entity_status: 'active', signup_complete: true, signup_url: null, signup_url_expires_at: null });
  });

  it('verbose=true on /accounts/auth includes the legal entity', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/accounts/auth?verbose=1',
      headers: { authorization: apiKey },
      payload: { legal_entity_id: entityId },
    });
    expect(json(res).legal_entity.id).toBe(entityId);
  });

  it("a platform cannot get a token for another platform's entity (404, not 403)", async () => {
    const other = await createPlatform(t.db, 'Other');
    const res = await t.app.inject({
      method: 'POST',
      url: '/accounts/auth',
      headers: { authorization: other.apiKey },
      payload: { legal_entity_id: entityId },
    });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ detail: `Legal entity '${entityId}' not found` });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/accounts/auth',
      headers: { authorization: other.apiKey },
      payload: { legal_entity_id: 'le_doesnotexist' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('validates the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/accounts/auth', headers: { authorization: apiKey }, payload: {} });
    expect(res.statusCode).toBe(422);
    expect(json(res)).toEqual({ detail: [{ type: 'missing', loc: ['body', 'legal_entity_id'], msg: 'Field required', input: {} }] });
  });

  describe('bearer endpoints reject bad tokens with 401 and WWW-Authenticate: Bearer', () => {
    const bearerEndpoints = ['/legal_entity', '/v2/legal_entity', '/locations', '/v2/regions'];
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['malformed', { authorization: 'Bearer not-a-token' }],
      ['an API key instead of a token', { authorization: 'Bearer sh_key_abc' }],
    ];
    it.each(bearerEndpoints)('%s', async (url) => {
      for (const [, headers] of cases) {
        const res = await t.app.inject({ url, headers });
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(typeof json(res).detail).toBe('string');
      }
    });

    it('a tampered token is rejected', async () => {
      const token = await accessToken(t.app, apiKey, entityId);
      const [payload, signature] = token.slice('sh_at_'.length).split('.') as [string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = `sh_at_${Buffer.from(JSON.stringify({ ...claims, e: 'le_someoneelse' })).toString('base64url')}.${signature}`;
      const flipped = `${token.slice(0, -2)}${token.endsWith('A') ? 'BB' : 'AA'}`;
      for (const bad of [forged, flipped, `${token}.extra`]) {
        const res = await t.app.inject({ url: '/legal_entity', headers: bearer(bad) });
        expect(res.statusCode).toBe(401);
        expect(json(res)).toEqual({ detail: 'Invalid access token' });
      }
    });

    it('only the canonical spelling of a token is accepted: look-alike encodings are 401', async () => {
      const token = await accessToken(t.app, apiKey, entityId);
      const [payload, signature] = token.slice('sh_at_'.length).split('.') as [string, string];
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      // 32 signature bytes fill 43 characters with 2 bits to spare: the last character's low bits decode to nothing.
      const spareBits = [1, 2, 3].map((bit) => `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(signature.at(-1)!) ^ bit]}`);
      const mutants = [
        ...spareBits.map((sig) => `sh_at_${payload}.${sig}`),
        `sh_at_${payload}.${signature}=`, // padding
        `sh_at_${payload}=.${signature}`,
        `sh_at_${payload}.${Buffer.from(signature, 'base64url').toString('base64')}`, // standard alphabet, padded
        `sh_at_${payload.replace(/-/g, '+').replace(/_/g, '/')}.${signature.replace(/-/g, '+').replace(/_/g, '/')}`,
        `sh_at_${payload.slice(0, -1)}${alphabet[alphabet.indexOf(payload.at(-1)!) ^ 1]}.${signature}`,
      ].filter((mutant) => mutant !== token);
      expect(mutants.length).toBeGreaterThanOrEqual(7);
      // Each mutant decodes to the same bytes as the real token (that is what made them dangerous) …
      for (const sig of spareBits) expect(Buffer.from(sig, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
      // … and each is refused, before and after the real token was verified (and cached).
      for (const round of [1, 2]) {
        for (const mutant of mutants) {
          const res = await t.app.inject({ url: '/legal_entity', headers: bearer(mutant) });
          expect(res.statusCode, `${round}: ${mutant}`).toBe(401);
          expect(json(res)).toEqual({ detail: 'Invalid access token' });
        }
        expect((await t.app.inject({ url: '/legal_entity', headers: bearer(token) })).statusCode).toBe(200);
      }
    });

    it('a token expires after its lifetime', async () => {
      const token = await accessToken(t.app, apiKey, entityId);
      expect((await t.app.inject({ url: '/legal_entity', headers: bearer(token) })).statusCode).toBe(200);
      t.advance(6_000);
      const res = await t.app.inject({ url: '/legal_entity', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(json(res).detail).toMatch(/^Access token expired/);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });
  });

  it('the default lifetime is 10 minutes', async () => {
    const t10 = await createTestApp();
    try {
      const { apiKey: key } = await createPlatform(t10.db);
      const id = await signupEntity(t10.app, key);
      const res = json(
        await t10.app.inject({ method: 'POST', url: '/v2/auth', headers: { authorization: key }, payload: { legal_entity_id: id } }),
      );
      expect(res.expires_in).toBe(600);
      // Expiry is in whole seconds and the real clock runs too: leave a few seconds of margin each side.
      t10.advance(595_000);
      expect((await t10.app.inject({ url: '/legal_entity', headers: bearer(res.access_token) })).statusCode).toBe(200);
      t10.advance(10_000);
      expect((await t10.app.inject({ url: '/legal_entity', headers: bearer(res.access_token) })).statusCode).toBe(401);
    } finally {
      await t10.close();
    }
  });
});
