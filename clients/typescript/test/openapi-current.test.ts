// The SDK's types are generated from clients/typescript/openapi.json (npm run build in the package); this fails
// while that snapshot differs from the document the service serves at /openapi.json. To bring it up to date:
// `npm run refresh-openapi -w @statehouse/client` (then `npm run build -w @statehouse/client`).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { formatDocument, SNAPSHOT_BASE_URL } from '../scripts/openapi-snapshot.js';

describe("the SDK's OpenAPI snapshot", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicBaseUrl: SNAPSHOT_BASE_URL });
  });
  afterAll(async () => t?.close());

  it('is the document the service serves (run `npm run refresh-openapi -w @statehouse/client` when not)', async () => {
    const served = formatDocument((await t.app.inject({ url: '/openapi.json' })).json());
    const committed = await readFile(path.resolve(import.meta.dirname, '..', 'openapi.json'), 'utf8');
    // Compared as text so the failure names the first differing lines, not a 1.6 MB object.
    expect(committed === served, 'clients/typescript/openapi.json is stale: npm run refresh-openapi -w @statehouse/client').toBe(true);
  });
});
