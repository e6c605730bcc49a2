// A real Statehouse listening on 127.0.0.1 (buildApp over a fresh test database, the durable job queue and the
// webhook fan-out running), for the SDK's tests: the SDK talks to it over HTTP like any client.
import { createPlatform, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { TEST_WEBHOOKS } from '../../../test/helpers/webhook-deliveries.js';

export interface LiveServer {
  t: TestApp;
  baseUrl: string;
  apiKey: string;
  platformId: string;
  close(): Promise<void>;
}

export async function startLiveServer(): Promise<LiveServer> {
  const t = await createTestApp({ webhooks: TEST_WEBHOOKS }, undefined, { jobs: true });
  const baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const platform = await createPlatform(t.db, 'SDK Payroll');
  return { t, baseUrl, apiKey: platform.apiKey, platformId: platform.platformId, close: () => t.close() };
}

/** A fetch that records each request's method and path and hands it to the real fetch. */
export function recordingFetch() {
  const calls: { method: string; path: string; authorization: string | null; idempotencyKey: string | null }[] = [];
  const fetch = (request: Request) => {
    calls.push({
      method: request.method,
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
      idempotencyKey: request.headers.get('idempotency-key'),
    });
    return globalThis.fetch(request);
  };
  return { fetch, calls };
}

export const SIGNUP = {
  user_email: 'owner@example.com',
  business_name: 'SDK Widgets Inc',
  entity_type: 'c_corp',
  tax_class: 'corp',
  incorporation_region: 'DE',
  incorporated_date: '2022-01-15',
} as const;
