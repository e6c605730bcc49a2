import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog, type Catalog } from '../src/catalog/catalog.js';
import { waitUntil } from './helpers/wait.js';
import { loadReleases } from '../src/catalog/releases.js';
import { releaseSummary } from '../src/catalog/release-history.js';
import { catalogRelease } from '../src/cli/catalog-release-command.js';
import type { Db } from '../src/db/database.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createPlanningModule, type CatalogReleaseSummary } from '../src/modules/planning/index.js';
import { createTaskEvents, plannedTaskStore } from '../src/modules/tasks/index.js';
import { plannedEntityStore } from '../src/modules/legal-entities/index.js';
import { PlatformTaskSchema } from '../src/modules/tasks/tasks.schemas.js';
import { createPlatform, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';

interface ListedEvent {
  id: string;
  type: string;
  legal_entity_id: string | null;
  data: { object: Record<string, unknown>; changed?: string[]; cause?: string };
}

const LATEST = loadReleases().at(-1)!;

async function listEvents(t: TestApp, headers: { authorization: string }, type?: string) {
  return json<ListedEvent[]>(await t.app.inject({ url: `/v2/events?limit=1000${type ? `&type=${type}` : ''}`, headers }));
}

/** The event log lists an event once every older transaction on the server has ended: wait for it, never for a time. */
function listedEventsOnce(
  t: TestApp,
  headers: { authorization: string },
  type: string | undefined,
  ready: (listed: ListedEvent[]) => boolean,
) {
  return waitUntil(
    async () => {
      const listed = await listEvents(t, headers, type);
      return ready(listed) && listed;
    },
    `the ${type ?? 'new'} events to be listed`,
  );
}

/** The count of the entity's platform's events once every one of them is listed (the start of a slice of new events). */
async function settledEventCount(t: TestApp, headers: { authorization: string }, entityId: string) {
  const { count } = await t.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('platform_id', '=', t.db.selectFrom('legal_entities').select('platform_id').where('id', '=', entityId))
    .executeTakeFirstOrThrow();
  return (await listedEventsOnce(t, headers, undefined, (listed) => listed.length >= Number(count))).length;
}

/** A planning module as another process would build it over the same database: another catalog and release. */
function planningOver(
  db: Db,
  catalog: Catalog,
  options: { catalogVersion?: string; catalogRelease?: CatalogReleaseSummary | null; releasesDir?: string } = {},
) {
  const { releasesDir, ...planning } = options;
  const taskEvents = createTaskEvents({
    catalog,
    publicBaseUrl: 'http://statehouse.test',
    events: createEventsService(),
    ...(releasesDir && { releasesDir }),
  });
  return createPlanningModule({
    db,
    catalog,
    now: () => new Date(),
    taskEvents,
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
    ...planning,
  });
}

/** A copy of the repository's catalog (its releases beside it) with `edit` applied to one region file. */
function nextCatalog(region: string, edit: (text: string) => string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-next-'));
  cpSync(fileURLToPath(new URL('../catalog', import.meta.url)), dir, { recursive: true });
  const file = path.join(dir, 'regions', `${region}.yaml`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, edit(text));
  expect(readFileSync(file, 'utf8')).not.toBe(text);
  return dir;
}

describe('catalog releases: the API, catalog.released and cause: catalog', { timeout: 120_000 }, () => {
  let t: TestApp;
  let key: { authorization: string };
  let other: { authorization: string };
  let entityId: string;
  const events = (headers: { authorization: string }, type?: string) => listEvents(t, headers, type);
  const eventsOnceListed = (headers: { authorization: string }, type: string | undefined, ready: (listed: ListedEvent[]) => boolean) =>
    listedEventsOnce(t, headers, type, ready);

  beforeAll(async () => {
    t = await createTestApp();
    // A platform without entities is told of releases too.
    other = { authorization: (await createPlatform(t.db, 'Other Payroll')).apiKey };
    const created = await createPlatformWithEntity(t, undefined, {
      user_email: 'o@example.com',
      business_name: 'First State Inc',
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2022-01-15',
    });
    key = { authorization: created.apiKey };
    entityId = created.entityId;
  });
  afterAll(async () => t.close());

  it('lists the releases newest first with the one this server plans with, and answers one with its changes', async () => {
    const list = await t.app.inject({ url: '/v2/catalog/releases', headers: key });
    expect(list.statusCode).toBe(200);
    const body = json<{ current: string | null; releases: { id: string; baseline: boolean; summary: { added: number } }[] }>(list);
    expect(body.current).toBe(LATEST.id);
    expect(body.releases.map((r) => r.id)).toEqual(
      loadReleases()
        .map((r) => r.id)
        .reverse(),
    );
    expect(body.releases.at(-1)).toMatchObject({ id: '2026.11.28-1', baseline: true, date: '2026-11-28' });
    expect(body.releases[0]).not.toHaveProperty('changes');

    const one = await t.app.inject({ url: '/v2/catalog/releases/2026.11.28-1', headers: key });
    expect(one.statusCode).toBe(200);
    const release = json<{
      summary: { added: number };
      changes: { change: string; id: string; region: string; title: string; sources: string[] }[];
    }>(one);
    expect(release.changes).toHaveLength(release.summary.added);
    expect(release.changes.find((c) => c.id === 'de-annual-franchise-tax-report-corporation')).toMatchObject({
      change: 'added',
      region: 'DE',
      title: expect.any(String),
      sources: expect.arrayContaining([expect.stringMatching(/^https:\/\//)]),
    });
  });

  it('refuses: 404 for an unknown release, 422 for an id too long, 401 without a key', async () => {
    const missing = await t.app.inject({ url: '/v2/catalog/releases/2020.01.01-1', headers: key });
    expect(missing.statusCode).toBe(404);
    expect(json(missing)).toEqual({ detail: "Catalog release '2020.01.01-1' not found" });
    const long = await t.app.inject({ url: `/v2/catalog/releases/${'9'.repeat(65)}`, headers: key });
    expect(long.statusCode).toBe(422);
    expect(json<{ detail: { loc: string[] }[] }>(long).detail[0]!.loc).toEqual(['path', 'id']);
    for (const url of ['/v2/catalog/releases', '/v2/catalog/releases/2026.11.28-1']) {
      const anonymous = await t.app.inject({ url });
      expect(anonymous.statusCode).toBe(401);
      expect(json(anonymous)).toEqual({ message: 'Unauthorized', detail: expect.any(String) });
    }
  });

  it('records catalog.released once per release for every platform, the first time the installation plans with it', async () => {
    // The signup's planning numbered the catalog: one event per platform, no entity.
    for (const headers of [key, other]) {
      const released = await eventsOnceListed(headers, 'catalog.released', (listed) => listed.length > 0);
      expect(released).toHaveLength(1);
      expect(released[0]).toMatchObject({ legal_entity_id: null, data: { object: releaseSummary(LATEST) } });
    }
    // Another process with the same release: nothing more.
    const again = planningOver(t.db, loadCatalog());
    await again.planning.catalogRevision();
    expect(await events(key, 'catalog.released')).toHaveLength(1);
    // A process with a newer release announces it, once, however many processes run it.
    const next: CatalogReleaseSummary = { ...releaseSummary(LATEST), id: '2099.01.01-1', title: 'Next', baseline: false };
    for (let i = 0; i < 2; i++)
      await planningOver(t.db, loadCatalog(), { catalogVersion: `next ${process.pid}`, catalogRelease: next }).planning.catalogRevision();
    for (const headers of [key, other]) {
      const released = await eventsOnceListed(headers, 'catalog.released', (listed) => listed.length > 1);
      expect(released.map((e) => e.data.object.id)).toEqual([LATEST.id, '2099.01.01-1']);
    }
    // The revision records the release it is.
    const rows = await t.db.selectFrom('catalog_versions').select(['hash', 'release_id']).orderBy('revision').execute();
    expect(rows.map((r) => r.release_id)).toEqual([LATEST.id, '2099.01.01-1']);
  });

  it('gives the task events of a re-planning by a new catalog cause: "catalog", and none to a change of facts', async () => {
    // The next catalog: Delaware's franchise report moves a day and gets a new id (one task created, one updated elsewhere).
    const dir = nextCatalog('DE', (text) =>
      text.replace('- id: de-annual-franchise-tax-report-corporation', '- id: de-franchise-tax-report-corporation'),
    );
    const next = planningOver(t.db, loadCatalog(dir), {
      catalogRelease: { ...releaseSummary(LATEST), id: '2099.02.01-1', baseline: false },
    });
    const before = await settledEventCount(t, key, entityId);
    // The daily roll-forward: the entity was planned with an older catalog, so it is due.
    expect(await next.rollForwardDue()).toMatchObject({ entities: 1 });
    const isCreated = (e: ListedEvent) =>
      e.type === 'task.created' &&
      (e.data.object.source as { requirement_id: string }).requirement_id === 'de-franchise-tax-report-corporation';
    const caused = (await eventsOnceListed(key, undefined, (listed) => listed.slice(before).some(isCreated)))
      .slice(before)
      .filter((e) => e.type.startsWith('task.'));
    expect(caused.length).toBeGreaterThan(0);
    expect(caused.every((e) => e.data.cause === 'catalog')).toBe(true);
    expect(caused.find((e) => e.type === 'task.created')?.data.object).toMatchObject({
      source: { requirement_id: 'de-franchise-tax-report-corporation' },
    });

    // A change of facts re-plans with no cause (the platform or owner made it).
    const after = await settledEventCount(t, key, entityId);
    const token = json<{ access_token: string }>(
      await t.app.inject({ method: 'POST', url: '/accounts/auth', headers: key, payload: { legal_entity_id: entityId } }),
    ).access_token;
    const put = await t.app.inject({
      method: 'PUT',
      url: '/v2/regions/CA',
      headers: { authorization: `Bearer ${token}` },
      payload: { employee_count: 2 },
    });
    expect(put.statusCode).toBe(200);
    // The event log lists an event once every older transaction on the server has ended: wait for it, never for a time.
    const own = await waitUntil(
      async () => {
        const listed = (await events(key)).slice(after).filter((e) => e.type.startsWith('task.'));
        return listed.length > 0 && listed;
      },
      'the task events of the change of facts',
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    expect(own.some((e) => 'cause' in e.data)).toBe(false);
  });
});

describe(
  'catalog releases: a retired requirement\'s untouched tasks are deleted with task.deleted, cause: "catalog"',
  { timeout: 120_000 },
  () => {
    const RETIRED = 'de-annual-franchise-tax-report-corporation';
    let t: TestApp;
    let key: { authorization: string };
    let entityId: string;
    // Another entity (its own platform) whose task of the requirement someone acted on: kept, no longer applicable.
    let keptKey: { authorization: string };
    let keptEntityId: string;

    beforeAll(async () => {
      t = await createTestApp();
      const entity = (email: string, name: string) =>
        createPlatformWithEntity(t, undefined, {
          user_email: email,
          business_name: name,
          entity_type: 'c_corp',
          tax_class: 'corp',
          incorporation_region: 'DE',
          incorporated_date: '2022-01-15',
        });
      const created = await entity('r@example.com', 'Retiring Inc');
      key = { authorization: created.apiKey };
      entityId = created.entityId;
      const kept = await entity('k@example.com', 'Keeping Inc');
      keptKey = { authorization: kept.apiKey };
      keptEntityId = kept.entityId;
    });
    afterAll(async () => t.close());
    const eventsOnceListed = (headers: { authorization: string }, type: string | undefined, ready: (listed: ListedEvent[]) => boolean) =>
      listedEventsOnce(t, headers, type, ready);

    it('describes each deleted task (and each kept one, no longer applicable) with the requirement as last released and the task row', async () => {
      // Release A (the repository's latest) has the requirement; the entity was planned with it, nobody acted on its tasks.
      const released = loadReleases()
        .flatMap((r) => r.changes)
        .filter((c) => c.id === RETIRED)
        .at(-1)!;
      expect(released).toMatchObject({ change: 'added', region: 'DE', category: expect.any(String), priority: expect.any(String) });
      const doomed = await t.db
        .selectFrom('tasks')
        .selectAll()
        .where('legal_entity_id', '=', entityId)
        .where('definition_id', '=', RETIRED)
        .execute();
      expect(doomed.length).toBeGreaterThan(0);
      expect(doomed.every((task) => task.acted_at === null && task.status === 'todo')).toBe(true);
      const actedOn = await t.db
        .updateTable('tasks')
        .set({ status: 'in-progress', acted_at: new Date() })
        .where('legal_entity_id', '=', keptEntityId)
        .where('definition_id', '=', RETIRED)
        .returningAll()
        .execute();
      expect(actedOn.length).toBeGreaterThan(0);

      // Release B retires it (cut by the release command in a copy of the catalog, its releases beside it).
      const dir = nextCatalog('DE', (text) => text.replace(`- id: ${RETIRED}\n`, '- id: de-franchise-tax-report-corporation-next\n'));
      catalogRelease({
        catalogDir: dir,
        id: '2099.03.01-1',
        date: '2099-03-01',
        title: 'Retires the franchise report',
        dryRun: false,
        json: true,
      });
      const releaseB = loadReleases(path.join(dir, 'releases')).at(-1)!;
      expect(releaseB.id).toBe('2099.03.01-1');
      expect(releaseB.changes.find((c) => c.id === RETIRED)).toEqual({
        change: 'retired',
        id: RETIRED,
        region: 'DE',
        title: released.title,
        sources: released.sources,
        category: released.category,
        priority: released.priority,
      });

      // The daily roll-forward with release B.
      const next = planningOver(t.db, loadCatalog(dir), {
        catalogRelease: releaseSummary(releaseB),
        releasesDir: path.join(dir, 'releases'),
      });
      const before = await settledEventCount(t, key, entityId);
      expect(await next.rollForwardDue()).toMatchObject({ entities: 2 });
      const ofRetired = (e: ListedEvent) => (e.data.object.source as { requirement_id: string }).requirement_id === RETIRED;
      const deleted = (await eventsOnceListed(key, 'task.deleted', (listed) => listed.filter(ofRetired).length >= doomed.length)).filter(
        ofRetired,
      );
      expect(deleted.map((e) => e.data.object.id).sort()).toEqual(doomed.map((task) => task.id).sort());
      const left = await t.db.selectFrom('tasks').select(['id', 'applicable']).where('definition_id', '=', RETIRED).execute();
      expect(left.map((task) => task.id).sort()).toEqual(actedOn.map((task) => task.id).sort());
      expect(left.every((task) => !task.applicable)).toBe(true);
      for (const event of deleted) {
        const task = doomed.find((d) => d.id === event.data.object.id)!;
        expect(event).toMatchObject({ type: 'task.deleted', legal_entity_id: entityId, data: { cause: 'catalog' } });
        expect(event.data).not.toHaveProperty('changed');
        expect(event.data.object).toMatchObject({
          id: task.id,
          title: released.title,
          status: 'todo',
          priority: released.priority,
          is_managed: false,
          source: {
            type: 'requirement',
            requirement_id: RETIRED,
            context: { scope: 'legal-entity', legal_entity_id: entityId },
            region: { id: expect.any(String), name: 'Delaware', parent_region: null },
            period_start_date: task.period_start_date,
            period_end_date: task.period_end_date,
            due_date: task.due_date,
            due_date_basis:
              task.due_date_rule === null
                ? null
                : { rule: task.due_date_rule, exact: task.due_date_exact ?? true, question_id: task.due_date_question },
            category: released.category,
            resolutions: { hosted: null, manual: null },
          },
        });
        expect(Value.Check(PlatformTaskSchema, event.data.object)).toBe(true);
      }
      // The rest of the re-planning is told as before: the requirement under its new id is created, with the cause.
      const isCreatedNext = (e: ListedEvent) =>
        e.type === 'task.created' &&
        (e.data.object.source as { requirement_id: string }).requirement_id === 'de-franchise-tax-report-corporation-next';
      const caused = (await eventsOnceListed(key, undefined, (listed) => listed.slice(before).some(isCreatedNext))).slice(before);
      expect(caused.filter((e) => e.type.startsWith('task.')).every((e) => e.data.cause === 'catalog')).toBe(true);
      expect(
        caused.some(
          (e) =>
            e.type === 'task.created' &&
            (e.data.object.source as { requirement_id: string }).requirement_id === 'de-franchise-tax-report-corporation-next',
        ),
      ).toBe(true);

      // A task someone acted on is kept: task.updated with `applicable`, the same payload with its status.
      const updated = (
        await eventsOnceListed(keptKey, 'task.updated', (listed) => listed.filter(ofRetired).length >= actedOn.length)
      ).filter(ofRetired);
      expect(updated.map((e) => e.data.object.id).sort()).toEqual(actedOn.map((task) => task.id).sort());
      for (const event of updated) {
        expect(event).toMatchObject({
          legal_entity_id: keptEntityId,
          data: {
            changed: ['applicable'],
            cause: 'catalog',
            object: { title: released.title, status: 'in-progress', priority: released.priority },
          },
        });
        expect(Value.Check(PlatformTaskSchema, event.data.object)).toBe(true);
      }
      expect(await json<ListedEvent[]>(await t.app.inject({ url: '/v2/events?limit=1000&type=task.deleted', headers: keptKey }))).toEqual(
        [],
      );
    });
  },
);
