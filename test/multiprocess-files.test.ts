import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { pathOf } from './helpers/mail.js';
import { tinyPdf } from './helpers/pdf.js';
import { createSecondApp, type SecondApp } from './helpers/second-app.js';

/** Mail files on two hosts (docs/scaling.md, "Mail files"): each its own data directory, one shared files directory. */
describe('mail files with STATEHOUSE_FILES_DIR shared by two processes', () => {
  const dirs: string[] = [];
  let a: TestApp;
  let b: SecondApp;
  let filesDir: string;

  beforeAll(async () => {
    const temp = async (name: string) => {
      const dir = await mkdtemp(path.join(tmpdir(), `statehouse-${name}-`));
      dirs.push(dir);
      return dir;
    };
    filesDir = await temp('shared-files');
    a = await createTestApp({ dataDir: await temp('host-a'), filesDir });
    b = await createSecondApp(a, { dataDir: await temp('host-b'), filesDir });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('reads the setting from the environment; unset, files stay in the data directory', () => {
    expect(loadConfig({ STATEHOUSE_FILES_DIR: '/mnt/statehouse-files' }).filesDir).toBe('/mnt/statehouse-files');
    expect(loadConfig({}).filesDir).toBeNull();
  });

  it('a PDF received through one host is downloaded through the other', async () => {
    const { entityId } = await createPlatformWithEntity(a);
    const opKey = (await createOperatorsService(a.db).createKey('ops')).key;
    const bytes = tinyPdf('shared volume');
    const uploaded = await a.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/mail?received=2025-04-02`,
      payload: bytes,
      headers: { authorization: `Bearer ${opKey}`, 'content-type': 'application/pdf' },
    });
    expect(uploaded.statusCode).toBe(201);
    const sha = json(uploaded).file_sha256 as string;
    expect(await readFile(path.join(filesDir, 'sha256', sha.slice(0, 2), sha))).toEqual(bytes);
    const download = await b.app.inject({ url: pathOf(json(uploaded).file_url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(bytes);
  });
});
