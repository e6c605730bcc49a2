/**
 * mail.received: recorded with the item on every intake path (operator API, CLI), as GET /v2/mail lists it but
 * without its short-lived signed `file_url`; a refused upload records nothing.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, TEST_VAULT_KEY } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { eventsUntil } from './helpers/events.js';
import { eventsOf } from './helpers/outbox.js';
import { startMailFixture, type MailFixture } from './helpers/mail.js';
import { tinyPdf } from './helpers/pdf.js';

describe('events: mail received', () => {
  let f: MailFixture;
  beforeAll(async () => {
    f = await startMailFixture();
  });
  afterAll(async () => f?.close());

  /** GET /v2/mail's items without `file_url`: what an event's object must equal. */
  const listedWithoutLink = async (token: string) =>
    json<Record<string, unknown>[]>(await f.get('/v2/mail', token)).map(({ file_url: _, ...item }) => item);

  it('each operator upload records mail.received for its entity, without a signed link', async () => {
    const events = await eventsOf(f.t, f.entityA, ['mail.received']);
    expect(events.map((e) => e.data.object.id).sort()).toEqual([f.ids.caOld, f.ids.caNew, f.ids.ny, f.ids.none].sort());
    const listed = await listedWithoutLink(f.tokenA);
    for (const event of events) {
      expect(event.data).toEqual({ object: listed.find((m) => m.id === event.data.object.id) });
      expect(event.data.object).not.toHaveProperty('file_url');
      expect(JSON.stringify(event)).not.toContain('signature=');
    }
    // Platform B's item is B's alone.
    expect((await eventsOf(f.t, f.entityB, ['mail.received'])).map((e) => e.data.object.id)).toEqual([f.ids.b]);
  });

  it('GET /v2/events lists them for the platform, as recorded', async () => {
    const listed = await eventsUntil(f.t.app, f.apiKey, (events) => events.length >= 4, 'type=mail.received');
    const recorded = await eventsOf(f.t, f.entityA, ['mail.received']);
    expect(listed.map((e) => [e.id, e.legal_entity_id, e.data])).toEqual(recorded.map((e) => [e.id, f.entityA, e.data]));
  });

  it('a refused upload records nothing', async () => {
    const before = (await eventsOf(f.t, f.entityA)).length;
    expect((await f.upload(f.entityA, Buffer.from('not a pdf'), { region: 'CA' })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await f.upload(f.entityA, tinyPdf('bad region'), { region: 'XX' })).statusCode).toBe(422);
    expect(await eventsOf(f.t, f.entityA)).toHaveLength(before);
  });

  it('the CLI records it too', async () => {
    const file = path.join(f.dataDir, 'cli-notice.pdf');
    await writeFile(file, tinyPdf('cli event'));
    const env = { DATABASE_URL: f.t.url, STATEHOUSE_DATA_DIR: f.dataDir, STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64') };
    const result = await runCli(
      ['mail', 'upload', '--entity', f.entityB, '--file', file, '--region', 'TX', '--sender', 'Texas Workforce Commission', '--json'],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const item = JSON.parse(result.stdout) as { id: string };
    const events = await eventsOf(f.t, f.entityB, ['mail.received']);
    expect(events.map((e) => e.data.object.id)).toEqual([f.ids.b, item.id]);
    expect(events[1]!.data.object).toEqual((await listedWithoutLink(f.tokenB)).find((m) => m.id === item.id));
  });
});
