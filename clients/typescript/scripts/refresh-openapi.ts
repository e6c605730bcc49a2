// npm run refresh-openapi -w @statehouse/client: writes clients/typescript/openapi.json, the document the service
// serves at /openapi.json, by building the app in-process (src/app.ts's buildApp) over a throwaway database
// (embedded PostgreSQL in a temporary directory, or a database on TEST_DATABASE_URL's server).
// test/sdk-openapi-current.test.ts fails while the committed file differs from what the service serves.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createDb } from '../../../src/db/database.js';
import { createTestDatabase, startTestCluster } from '../../../test/helpers/test-database.js';
import { SNAPSHOT_BASE_URL, formatDocument } from './openapi-snapshot.js';

const target = path.resolve(import.meta.dirname, '..', 'openapi.json');
const cluster = await startTestCluster();
try {
  const url = await createTestDatabase(cluster);
  const db = createDb(url, 2);
  const app = await buildApp({
    config: loadConfig({}, { databaseUrl: url, publicBaseUrl: SNAPSHOT_BASE_URL }),
    db,
    logger: false,
    vaultKeys: [Buffer.alloc(32, 7)],
  });
  const response = await app.inject({ url: '/openapi.json' });
  if (response.statusCode !== 200) throw new Error(`/openapi.json answered ${response.statusCode}`);
  await writeFile(target, formatDocument(response.json()));
  await app.close();
  await db.destroy();
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
} finally {
  await cluster.stop();
}
