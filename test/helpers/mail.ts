import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOperatorsService } from '../../src/modules/operators/operators.service.js';
import { bearer, createPlatformWithEntity, createTestApp, json } from './app.js';
import { tinyPdf } from './pdf.js';

/** What the mail-*.test.ts files share: location ids, the upload limit, the expired-link message and small helpers. */
/** The public ids of the CA and NY locations. */
export const CA_ID = '99be5e8f54c4680d';
export const NY_ID = '5894aa7b4729ed13';
export const MAX_BYTES = 4096;
export const EXPIRED = 'This download link has expired; list the mail again for a fresh link';

export const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/**
 * An app with a data directory and MAIL_MAX_BYTES of 4 KiB, an operator key, two platforms with one entity each
 * (A and B, with access tokens) and five uploaded items: for A, CA on two days, NY and one without a state; for
 * B, one CA item. `ids` and `pdfs` name the items (caOld, caNew, ny, none, b).
 */
export async function startMailFixture() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'statehouse-mail-'));
  const t = await createTestApp({ dataDir, mailMaxBytes: MAX_BYTES });
  const opKey = (await createOperatorsService(t.db).createKey('ops')).key;
  const { apiKey, entityId: entityA, token: tokenA } = await createPlatformWithEntity(t, 'Platform A');
  const {
    apiKey: apiKeyB,
    entityId: entityB,
    token: tokenB,
  } = await createPlatformWithEntity(t, 'Platform B', { business_name: 'Other Co' });
  const ids: Record<string, string> = {};
  const pdfs: Record<string, Buffer> = {};

  const upload = (entity: string, body: Buffer | string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entity}/mail?${new URLSearchParams(query)}`,
      payload: body,
      headers: { authorization: `Bearer ${opKey}`, 'content-type': 'application/pdf', ...headers },
    });
  const get = (url: string, token = tokenA) => t.app.inject({ url, headers: bearer(token) });
  const mailCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('mail_items')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const items: [string, string, Record<string, string>][] = [
    [
      'caOld',
      entityA,
      { region: 'CA', received: '2025-01-10', sender: 'California EDD', type: 'external-mail', file_name: 'EDD notice.pdf' },
    ],
    ['caNew', entityA, { region: 'CA', received: '2025-03-01', sender: 'California Franchise Tax Board' }],
    ['ny', entityA, { region: 'NY', received: '2025-02-15' }],
    ['none', entityA, { received: '2025-02-01', sender: 'IRS' }],
    ['b', entityB, { region: 'CA', received: '2025-02-20', sender: 'Secret sender of B' }],
  ];
  for (const [name, entity, query] of items) {
    pdfs[name] = tinyPdf(`item ${name}`);
    const response = await upload(entity, pdfs[name]!, query);
    if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
    ids[name] = json(response).id;
  }

  return {
    t,
    dataDir,
    opKey,
    apiKey,
    apiKeyB,
    entityA,
    entityB,
    tokenA,
    tokenB,
    ids,
    pdfs,
    upload,
    get,
    mailCount,
    close: async () => {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type MailFixture = Awaited<ReturnType<typeof startMailFixture>>;
