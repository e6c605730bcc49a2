import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { createPlatform, createPlatformWithEntity, createTestApp, json, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

describe('logging', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'trace' }, { write: (line) => void lines.push(line) });
  });
  afterAll(async () => t.close());

  it('never writes an API key, an access token or a hosted-session token', async () => {
    const {
      apiKey,
      entityId: entity,
      token,
    } = await createPlatformWithEntity(t, undefined, { authorization_callback_url: 'https://p.example/cb' });
    const state = json(
      await t.app.inject({
        method: 'POST',
        url: '/v2/auth',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: { legal_entity_id: entity },
      }),
    ).state;
    const link = new URL(state.signup_url).pathname;
    await t.app.inject({ url: link });
    await t.app.inject({ method: 'POST', url: link });
    // The confirmation carries the token in its form body, which no log line holds.
    await t.app.inject({
      method: 'POST',
      url: '/hosted/s',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${link.split('/').at(-1)!}`,
    });
    await t.app.inject({ url: '/legal_entity', headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({ url: '/legal_entity', headers: { authorization: `Bearer ${token}x` } });
    await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: `${apiKey}x` }, payload: VALID_SIGNUP_V2 });

    const log = lines.join('');
    expect(lines.length).toBeGreaterThanOrEqual(7); // at least one line per request
    expect(log).toContain('/hosted/s/[redacted]');
    for (const secret of [apiKey, apiKey.slice(7), token, token.slice(6, 40), link.split('/').at(-1)!]) expect(log).not.toContain(secret);
  });
});

describe('graceful shutdown', () => {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
  });
  afterAll(async () => dropTestDatabase(inject('testCluster').adminUrl, url));

  it('lets an in-flight request finish, then refuses new ones and closes the database', async () => {
    const config = loadConfig({}, { databaseUrl: url, port: 0, logLevel: 'silent' });
    const server = await startServer(config, () => {});
    const { apiKey } = await createPlatform(server.database.db);
    const body = JSON.stringify(VALID_SIGNUP_V2);

    // Start a request and hold back the end of its body until the server has begun to close.
    const arrived = once(server.app.server, 'request');
    let finishBody!: () => void;
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/v2/signup`,
        {
          method: 'POST',
          headers: { authorization: apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let data = '';
          res.on('data', (c) => (data += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: data }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      finishBody = () => req.end(body.slice(10));
    });
    await arrived; // the server has the request (headers read, body incomplete)
    const closing = server.close();
    finishBody();
    const finished = await response;
    await closing;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).legal_entity_id).toMatch(/^le_/);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
