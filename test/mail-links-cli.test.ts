/**
 * Mail, signed file links (download, tampering, expiry), the OpenAPI description, and the CLI (`mail upload`,
 * `mail list`, `mail gc`) over the same service and file store. Upload and listings: mail-upload-listings.test.ts.
 */
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFileStorage, type FileStorage } from '../src/modules/mail/file-storage.js';
import { createFileLinks } from '../src/modules/mail/file-links.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createMailService } from '../src/modules/mail/mail.service.js';
import { TEST_VAULT_KEY, accessToken, json } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { tinyPdf } from './helpers/pdf.js';
import { MAX_BYTES, EXPIRED, pathOf, startMailFixture, type MailFixture } from './helpers/mail.js';

describe('mail: signed file links and the CLI', () => {
  let fixture: MailFixture;
  let t: MailFixture['t'];
  let dataDir: MailFixture['dataDir'];
  let apiKey: MailFixture['apiKey'];
  let apiKeyB: MailFixture['apiKeyB'];
  let entityA: MailFixture['entityA'];
  let entityB: MailFixture['entityB'];
  let tokenA: MailFixture['tokenA'];
  let tokenB: MailFixture['tokenB'];
  let ids: MailFixture['ids'];
  let pdfs: MailFixture['pdfs'];
  let get: MailFixture['get'];

  beforeAll(async () => {
    fixture = await startMailFixture();
    ({ t, dataDir, apiKey, apiKeyB, entityA, entityB, tokenA, tokenB, ids, pdfs, get } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  describe('signed file links', () => {
    const linkOf = async (name: string, token = tokenA) => {
      const list = json(await get('/v2/mail', token));
      return new URL(list.find((m: { id: string }) => m.id === ids[name]).file_url);
    };

    it('download: 200 application/pdf, inline with a safe name, not cached, bytes round-trip', async () => {
      const response = await t.app.inject({ url: pathOf((await linkOf('caOld')).href) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe('inline; filename="EDD notice.pdf"');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.rawPayload).toEqual(pdfs.caOld);
      const unnamed = await t.app.inject({ url: pathOf((await linkOf('ny')).href) });
      expect(unnamed.headers['content-disposition']).toBe(`inline; filename="${ids.ny}.pdf"`);
      expect(unnamed.rawPayload).toEqual(pdfs.ny);
    });

    it('a tampered signature, expiry or mail id is a 403', async () => {
      const link = await linkOf('caNew');
      const signature = link.searchParams.get('signature')!;
      const expires = link.searchParams.get('expires')!;
      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      const cases = [
        `/files/mail/${ids.caNew}?expires=${expires}&signature=${flip(signature, 0)}`,
        `/files/mail/${ids.caNew}?expires=${expires}&signature=${flip(signature, signature.length - 1)}`,
        `/files/mail/${ids.caNew}?expires=${Number(expires) + 3600}&signature=${signature}`,
        `/files/mail/${ids.caNew}?expires=0${expires}&signature=${signature}`,
        `/files/mail/${ids.caNew}?expires=${expires}`,
        `/files/mail/${ids.caNew}?signature=${signature}`,
        `/files/mail/${ids.caNew}`,
        `/files/mail/${ids.caOld}?expires=${expires}&signature=${signature}`, // another of A's items
      ];
      for (const url of cases) {
        const response = await t.app.inject({ url });
        expect(response.statusCode, url).toBe(403);
        expect(json(response)).toEqual({ detail: 'This download link is not valid' });
      }
    });

    it("A's link cannot be altered to fetch B's file", async () => {
      const link = await linkOf('caNew');
      const response = await t.app.inject({ url: `/files/mail/${ids.b}${link.search}` });
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('%PDF');
      // B's own link works for B's file.
      const own = await t.app.inject({ url: pathOf((await linkOf('b', tokenB)).href) });
      expect(own.statusCode).toBe(200);
      expect(own.rawPayload).toEqual(pdfs.b);
    });

    it('an unknown mail id is a 404', async () => {
      const link = await linkOf('caNew');
      const response = await t.app.inject({ url: `/files/mail/mail_doesnotexist${link.search}` });
      expect(response.statusCode).toBe(404);
    });

    it('a link expires after FILE_URL_TTL_SECONDS (410); listing again gives a fresh one', async () => {
      const link = await linkOf('none');
      expect(Number(link.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(t.config.fileUrlTtlSeconds - 5);
      t.advance((t.config.fileUrlTtlSeconds - 30) * 1000);
      expect((await t.app.inject({ url: pathOf(link.href) })).statusCode).toBe(200);
      t.advance(60_000);
      const expired = await t.app.inject({ url: pathOf(link.href) });
      expect(expired.statusCode).toBe(410);
      expect(json(expired)).toEqual({ detail: EXPIRED });
      // A forged link stays a 403 even when its expiry has passed: the signature is checked first.
      expect(
        (await t.app.inject({ url: `/files/mail/${ids.none}?expires=${link.searchParams.get('expires')}&signature=${'A'.repeat(43)}` }))
          .statusCode,
      ).toBe(403);
      const fresh = await linkOf('none', await accessToken(t.app, apiKey, entityA));
      const response = await t.app.inject({ url: pathOf(fresh.href) });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload).toEqual(pdfs.none);
    });
  });

  it('the OpenAPI document describes the mail operations, not the hosted page', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    for (const [p, method] of [
      ['/mail', 'get'],
      ['/locations/{region_platform_public_id}/mail', 'get'],
      ['/v2/mail', 'get'],
      ['/files/mail/{mail_id}', 'get'],
      ['/v2/documents/manage/session', 'post'],
      ['/operator/v1/legal_entities/{legal_entity_id}/mail', 'post'],
    ] as const) {
      expect(doc.paths[p]?.[method]?.operationId, p).toEqual(expect.any(String));
    }
    expect(doc.paths['/files/mail/{mail_id}'].get.responses['200'].content).toHaveProperty('application/pdf');
    expect(doc.paths['/hosted/documents']).toBeUndefined();
  });

  describe('CLI', () => {
    it('mail upload and mail list go through the same service and file store', async () => {
      const file = path.join(dataDir, 'Notice of Levy.pdf');
      const bytes = tinyPdf('from the CLI');
      await writeFile(file, bytes);
      const env = { DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dataDir, STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64') };
      const result = await runCli(
        [
          'mail',
          'upload',
          '--entity',
          entityB,
          '--file',
          file,
          '--region',
          'TX',
          '--type',
          'external-mail',
          '--sender',
          'Texas Workforce Commission',
          '--subject',
          'Notice of levy',
          '--received',
          '2025-05-05',
          '--json',
        ],
        env,
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const item = JSON.parse(result.stdout);
      expect(item).toMatchObject({
        legal_entity_id: entityB,
        region: 'TX',
        type: 'external-mail',
        received: '2025-05-05',
        sender: 'Texas Workforce Commission',
        subject: 'Notice of levy',
        file_name: 'Notice of Levy.pdf',
        file_size: bytes.length,
      });

      // A fresh token: an earlier test moved the app's clock past the first one's expiry.
      const listed = json(await get('/v2/mail?region=TX', await accessToken(t.app, apiKeyB, entityB)));
      expect(listed.map((m: { id: string }) => m.id)).toEqual([item.id]);
      const download = await t.app.inject({ url: pathOf(listed[0].file_url) });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload).toEqual(bytes);

      const list = await runCli(['mail', 'list', '--entity', entityB, '--json'], env);
      expect(JSON.parse(list.stdout).map((m: { id: string }) => m.id)).toContain(item.id);
      const text = await runCli(['mail', 'list', '--entity', entityB], env);
      expect(text.stdout).toContain(item.id);

      // Rule violations are reported in the CLI's words, and nothing is recorded.
      const notPdf = path.join(dataDir, 'notes.txt');
      await writeFile(notPdf, 'just text');
      const refused = await runCli(['mail', 'upload', '--entity', entityB, '--file', notPdf], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--file: the file is not a PDF');
      const missing = await runCli(['mail', 'upload', '--entity', 'le_nope', '--file', file], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("Legal entity 'le_nope' not found");
      const usage = await runCli(['mail', 'upload', '--file', file], env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--entity');
    }, 60_000);

    it('mail gc removes only old files no item refers to, and interrupted writes', async () => {
      const storage = createLocalFileStorage(path.join(dataDir, 'files'));
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
      const referenced = (await t.db.selectFrom('mail_items').select('file_sha256').distinct().execute()).map((r) => r.file_sha256);
      for (const sha of referenced) await utimes(path.join(dataDir, 'files', 'sha256', sha.slice(0, 2), sha), hoursAgo(5), hoursAgo(5));
      const oldOrphan = await storage.put(tinyPdf('orphan from a crash'));
      await utimes(path.join(dataDir, 'files', 'sha256', oldOrphan.sha256.slice(0, 2), oldOrphan.sha256), hoursAgo(2), hoursAgo(2));
      const newOrphan = await storage.put(tinyPdf('an upload in flight'));
      const leftover = path.join(dataDir, 'files', 'sha256', oldOrphan.sha256.slice(0, 2), `.${oldOrphan.sha256}.abc.tmp`);
      await writeFile(leftover, 'half a file');
      await utimes(leftover, hoursAgo(2), hoursAgo(2));

      let stored = 0;
      for await (const _ of storage.list()) stored++;
      const result = await runCli(['mail', 'gc', '--json'], { DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ checked: stored, removed: 1, leftovers: 1 });
      expect(await storage.exists(oldOrphan.sha256)).toBe(false);
      expect(await storage.exists(newOrphan.sha256)).toBe(true);
      for (const sha of referenced) expect(await storage.exists(sha)).toBe(true);
      // Every item still downloads.
      const listed = json(await get('/v2/mail', await accessToken(t.app, apiKeyB, entityB)));
      for (const item of listed) expect((await t.app.inject({ url: pathOf(item.file_url) })).statusCode).toBe(200);
    }, 60_000);

    it('an upload racing garbage collection never loses its file', async () => {
      const real = createLocalFileStorage(path.join(dataDir, 'files'));
      // The upload pauses between storing its file and committing its row, while collection runs.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let stored!: () => void;
      const fileStored = new Promise<void>((resolve) => (stored = resolve));
      const paused: FileStorage = {
        ...real,
        put: async (bytes) => {
          const result = await real.put(bytes);
          stored();
          await gate;
          return result;
        },
      };
      const links = createFileLinks({
        key: async () => Buffer.alloc(32, 1),
        publicBaseUrl: t.config.publicBaseUrl,
        ttlSeconds: 60,
        now: () => new Date(),
      });
      const uploads = createMailService({
        db: t.db,
        storage: paused,
        links,
        maxBytes: MAX_BYTES,
        now: () => new Date(),
        events: createEventsService(),
      });
      const collector = createMailService({
        db: t.db,
        storage: real,
        links,
        maxBytes: MAX_BYTES,
        now: () => new Date(),
        events: createEventsService(),
      });

      // The same bytes already lie in the store, unreferenced (an earlier crash), when they are uploaded again.
      const bytes = tinyPdf('uploaded again after a crash');
      await real.put(bytes);
      const upload = uploads.ingest({ legalEntityId: entityB, bytes });
      await fileStored;
      const collection = collector.collectGarbage(0);
      await new Promise((resolve) => setTimeout(resolve, 300)); // collection has listed the file and is deciding
      release();
      const [item] = await Promise.all([upload, collection]);
      expect(await real.exists(item.fileSha256)).toBe(true);
    });
  });
});
