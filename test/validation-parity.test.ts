import { afterAll, beforeAll, describe, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { createTestApp, createPlatform, signupEntity, accessToken, bearer, type TestApp } from './helpers/app.js';

const probes: Array<{ method: string; url: string; headers?: Record<string, string>; body?: string; auth: 'key' | 'bearer' | 'none' }> = JSON.parse(process.env.PROBES ?? '[]');

describe('probe', () => {
  let t: TestApp; let key: string; let token: string;
  beforeAll(async () => { t = await createTestApp({ bodyLimitBytes: Number(process.env.LIMIT ?? 1048576) }); key = (await createPlatform(t.db)).apiKey; token = await accessToken(t.app, key, await signupEntity(t.app, key)); });
  afterAll(async () => { await t.close(); });
  it('runs', async () => {
    const out: string[] = [];
    for (const p of probes) {
      const headers = { ...(p.auth === 'key' ? { authorization: key } : p.auth === 'bearer' ? bearer(token) : {}), ...p.headers };
      const res = await t.app.inject({ method: p.method as any, url: p.url, headers, payload: p.body });
      out.push(`${p.method} ${p.url.slice(0,150)} ${JSON.stringify(p.headers ?? {})} ${JSON.stringify((p.body ?? '').slice(0, 200))}\n  => ${res.statusCode} ${JSON.stringify(res.headers['allow'] ?? '')} ${res.body.slice(0, 1500)}`);
    }
    writeFileSync('/tmp/probe/out.txt', out.join('\n'));
  });
});
