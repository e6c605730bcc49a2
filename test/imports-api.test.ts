import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, createPlatform, createTestApp, json, type TestApp } from './helpers/app.js';
import { importBody, importFile, waitForImport } from './helpers/imports.js';
import { waitUntil } from './helpers/wait.js';

describe('imports: POST /v2/legal_entities/imports', { timeout: 120_000 }, () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { jobs: true });
    ({ apiKey, platformId } = await createPlatform(t.db, 'Book Payroll'));
  });
  afterAll(() => t?.close());

  const get = (url: string, key = apiKey) => t.app.inject({ method: 'GET', url, headers: { authorization: key } });
  // The event log lists an event once every older transaction has ended (docs/events.md): wait until it lists
  // as many as the table holds for the platform.
  const settledEventCount = async () => {
    const { count } = await t.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('platform_id', '=', platformId)
      .executeTakeFirstOrThrow();
    return waitUntil(async () => {
      const listed = json(await get('/v2/events?limit=10000')).length;
      return listed >= Number(count) && listed;
    }, 'the event log to list every recorded event');
  };

  it('imports JSON lines: a bad row fails with its errors in the 422 item shape, the good rows are created and planned', async () => {
    const lines = [
      importBody('jl-1', {
        status: 'active',
        regions: [
          { code: 'CA', employee_count: 12, has_physical_location: true },
          { code: 'NY', employee_count: 3 },
        ],
      }),
      importBody('jl-2', { ein: 'not-an-ein' }),
      importBody('jl-3', { regions: [{ code: 'TX' }] }),
    ];
    const created = await importFile(t.app, apiKey, 'application/x-ndjson', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(created.statusCode).toBe(202);
    const started = json(created);
    expect(started).toMatchObject({ id: expect.stringMatching(/^imp_/), format: 'jsonl', counts: { total: 3, failed: 1 } });

    const done = await waitForImport(t.app, apiKey, started.id);
    expect(done.status).toBe('completed_with_errors');
    expect(done.counts).toEqual({ total: 3, created: 2, unchanged: 0, failed: 1, pending: 0 });
    const [first, bad, third] = done.rows;
    expect(bad).toMatchObject({ row: 2, external_company_id: 'jl-2', status: 'failed', legal_entity_id: null });
    expect(bad.errors).toEqual([expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['row', 2, 'ein'], input: 'not-an-ein' })]);
    expect(first).toMatchObject({ row: 1, status: 'created', errors: [] });
    expect(third).toMatchObject({ row: 3, status: 'created', errors: [] });

    // status: active — no hosted signup; otherwise inactive, as POST /v2/signup leaves it.
    const token = await accessToken(t.app, apiKey, first.legal_entity_id);
    const entity = json(await t.app.inject({ method: 'GET', url: '/v2/legal_entity', headers: bearer(token) }));
    expect(entity).toMatchObject({ status: 'active', external_company_id: 'jl-1' });
    const inactive = json(
      await t.app.inject({
        method: 'GET',
        url: '/v2/legal_entity',
        headers: bearer(await accessToken(t.app, apiKey, third.legal_entity_id)),
      }),
    );
    expect(inactive.status).toBe('inactive');
    const locations = json(await t.app.inject({ method: 'GET', url: '/locations', headers: bearer(token) }));
    expect(locations.map((l: { location: { code: string }; config: unknown }) => [l.location.code, l.config])).toEqual([
      ['CA', { has_employees: true, has_physical_location: true, employee_count: 12 }],
      ['NY', { has_employees: true, has_physical_location: null, employee_count: 3 }],
    ]);
    const tasks = json(await t.app.inject({ method: 'GET', url: '/v2/tasks?page_size=500', headers: bearer(token) }));
    expect(tasks.length).toBeGreaterThan(0);
    // Events as for a signup: the active one's signup_completed, the tasks planned, the regions added.
    const expected = ['legal_entity.signup_completed', 'location.updated', 'task.created'];
    const types = await waitUntil(async () => {
      const listed = json(await get(`/v2/events?legal_entity_id=${first.legal_entity_id}&limit=500`)).map((e: { type: string }) => e.type);
      return expected.every((type) => listed.includes(type)) && listed;
    }, "the imported entity's events to be listed");
    expect(new Set(types)).toEqual(new Set(expected));
  });

  it('imports CSV with the flat mapping; re-running it changes nothing; different data is a conflict', async () => {
    const csv = [
      'external_company_id,business_name,user_email,entity_type,tax_class,incorporation_region,incorporated_date,business_address.address_line_1,business_address.city,business_address.state,business_address.country,business_address.postal_code,regions,status',
      'csv-1,"Comma, Inc",a@example.com,llc,partnership,DE,2021-03-04,1 Main St,Oakland,CA,US,94601,CA:5:physical;NY::remote,active',
      'csv-2,Second Co,b@example.com,c_corp,corp,DE,2020-01-01,,,,,,TX:2,',
    ].join('\n');
    const first = await waitForImport(t.app, apiKey, json(await importFile(t.app, apiKey, 'text/csv', csv)).id);
    expect(first.status).toBe('succeeded');
    expect(first.counts).toMatchObject({ total: 2, created: 2, failed: 0 });
    const token = await accessToken(t.app, apiKey, first.rows[0].legal_entity_id);
    const entity = json(await t.app.inject({ method: 'GET', url: '/v2/legal_entity', headers: bearer(token) }));
    expect(entity).toMatchObject({ business_name: 'Comma, Inc', business_address: { city: 'Oakland', postal_code: '94601' } });
    const locations = json(await t.app.inject({ method: 'GET', url: '/locations', headers: bearer(token) }));
    expect(locations.map((l: { config: unknown }) => l.config)).toEqual([
      { has_employees: true, has_physical_location: true, employee_count: 5 },
      { has_employees: null, has_physical_location: false, employee_count: null },
    ]);

    const eventsBefore = await settledEventCount();
    const again = await waitForImport(t.app, apiKey, json(await importFile(t.app, apiKey, 'text/csv', csv)).id);
    expect(again.rows.flatMap((r: { errors: unknown[] }) => r.errors)).toEqual([]);
    expect(again.status).toBe('succeeded');
    expect(again.counts).toMatchObject({ total: 2, created: 0, unchanged: 2, failed: 0 });
    expect(again.rows.map((r: { legal_entity_id: string }) => r.legal_entity_id)).toEqual(
      first.rows.map((r: { legal_entity_id: string }) => r.legal_entity_id),
    );
    expect(await settledEventCount()).toBe(eventsBefore);

    const changed = await waitForImport(
      t.app,
      apiKey,
      json(await importFile(t.app, apiKey, 'text/csv', csv.replace('Second Co', 'Renamed Co'))).id,
    );
    expect(changed.counts).toMatchObject({ unchanged: 1, failed: 1 });
    expect(changed.rows[1].errors).toEqual([
      expect.objectContaining({ type: 'conflict', loc: ['row', 2, 'business_name'], input: 'Renamed Co' }),
    ]);
  });

  it('refuses what it cannot take with the envelope: another type (415), an unreadable CSV (422), too many rows (413)', async () => {
    expect((await importFile(t.app, apiKey, 'application/xml', '<a/>')).statusCode).toBe(415);
    const unreadable = await importFile(t.app, apiKey, 'text/csv', 'a,b\n"unclosed,1\n');
    expect(unreadable.statusCode).toBe(422);
    expect(json(unreadable).detail[0]).toMatchObject({ type: 'csv_invalid', loc: ['body'] });
    const tooMany = await importFile(t.app, apiKey, 'application/x-ndjson', '{}\n'.repeat(50_001));
    expect(tooMany.statusCode).toBe(413);
    expect(json(tooMany).detail).toMatch(/at most 50000/);
    expect((await importFile(t.app, 'sk_wrong', 'text/csv', 'a\n1\n')).statusCode).toBe(401);
  });

  it("lists a platform's imports; another platform never sees them", async () => {
    const mine = json(await get('/v2/legal_entities/imports'));
    expect(mine.length).toBeGreaterThanOrEqual(4);
    const other = await createPlatform(t.db, 'Other Payroll');
    expect(json(await get('/v2/legal_entities/imports', other.apiKey))).toEqual([]);
    expect((await get(`/v2/legal_entities/imports/${mine[0].id}`, other.apiKey)).statusCode).toBe(404);
    // Its external ids are its own: the same file creates the other platform's own entities.
    const theirs = await waitForImport(
      t.app,
      other.apiKey,
      json(await importFile(t.app, other.apiKey, 'application/jsonl', JSON.stringify(importBody('jl-1')))).id,
    );
    expect(theirs.counts).toMatchObject({ created: 1 });
    // Paging: one at a time, with the next page's URL.
    const page = await get('/v2/legal_entities/imports?limit=1');
    expect(json(page)).toHaveLength(1);
    expect(page.headers['x-next-page']).toContain(`starting_after=${mine[0].id}`);
  });
});
