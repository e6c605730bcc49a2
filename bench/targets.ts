/** The load targets a … g1 (see run.ts), built from what the setup and the fixtures captured. */
import type { Child } from './children.js';
import type { Target } from './load.js';
import type { prepareMailFixture, prepareTasksFixture } from './fixtures.js';
import type { startServers } from './setup.js';
import { MAIL_V2_PATH, TASKS_PATH, TASKS_V2_PATH, unsigned } from './settings.js';

/** Everything the setup and the fixtures captured. */
export type Ready = Awaited<ReturnType<typeof startServers>> &
  Awaited<ReturnType<typeof prepareTasksFixture>> &
  Awaited<ReturnType<typeof prepareMailFixture>>;

/** b, the floor for a database-backed endpoint (also the automations scenario's floor). */
export function barePgTarget({ barePg, pgCheck }: Pick<Awaited<ReturnType<typeof startServers>>, 'barePg' | 'pgCheck'>): Target {
  return {
    key: 'b',
    name: 'bare-pg',
    server: barePg,
    url: barePg.info.url as string,
    method: 'GET',
    expectBody: pgCheck.body.toString('utf8'),
    sampleRss: false,
    responseBytes: pgCheck.body.length,
    description: 'node:http + one pg query (pg.Pool of 10) + JSON.stringify(row): the floor for a database-backed endpoint',
  };
}

export function buildTargets(ready: Ready): Target[] {
  const { statehouse, sh, bearer, authHeaders, authBody, auth, entity, bareStatic, staticCheck } = ready;
  const { tasksEntity, tasksBearer, tasksReply, tasksV2Reply, barePgTasks, pgTasksCheck, tasksResponse } = ready;
  const { mailReply, mailListing, mailCheck, fileUrl, fileReply, bareStaticPdf, staticPdfCheck, barePgMail, pgMailCheck, pgMailRows } =
    ready;
  return [
    {
      key: 'a',
      name: 'bare-static',
      server: bareStatic,
      url: bareStatic.info.url as string,
      method: 'GET',
      expectBody: entity.body.toString('utf8'),
      sampleRss: false,
      responseBytes: staticCheck.body.length,
      description: 'node:http returning the exact bytes of GET /legal_entity (no framework, no database)',
    },
    barePgTarget(ready),
    {
      key: 'c1',
      name: 'GET /legal_entity',
      server: statehouse as Child<Record<string, unknown>>,
      url: `${sh.url}/legal_entity`,
      method: 'GET',
      headers: bearer,
      expectBody: entity.body.toString('utf8'),
      sampleRss: true,
      responseBytes: entity.body.length,
      description: 'Statehouse: bearer token check (HMAC) + one query + response schema',
    },
    {
      key: 'c2',
      name: 'POST /accounts/auth',
      server: statehouse as Child<Record<string, unknown>>,
      url: `${sh.url}/accounts/auth`,
      method: 'POST',
      headers: authHeaders,
      body: authBody,
      sampleRss: true,
      responseBytes: auth.body.length,
      description: 'Statehouse: API key lookup + legal entity lookup + token issue',
    },
    {
      key: 'd0',
      name: 'bare-pg-tasks',
      server: barePgTasks,
      url: barePgTasks.info.url as string,
      method: 'GET',
      expectBody: pgTasksCheck.body.toString('utf8'),
      sampleRss: false,
      responseBytes: pgTasksCheck.body.length,
      description: `node:http + select * from tasks where legal_entity_id = $1 order by id (${tasksResponse.rows} rows, pg.Pool of 10) + JSON.stringify(rows): the floor for GET /tasks`,
    },
    {
      key: 'd1',
      name: 'GET /tasks',
      server: statehouse as Child<Record<string, unknown>>,
      url: `${sh.url}${TASKS_PATH}`,
      method: 'GET',
      headers: tasksBearer,
      expectBody: tasksReply.body.toString('utf8'),
      sampleRss: true,
      responseBytes: tasksReply.body.length,
      description: `Statehouse: ${TASKS_PATH} of an entity with ${tasksEntity.total} tasks (${tasksResponse.d1.tasks} returned)`,
    },
    {
      key: 'd2',
      name: 'GET /v2/tasks',
      server: statehouse as Child<Record<string, unknown>>,
      url: `${sh.url}${TASKS_V2_PATH}`,
      method: 'GET',
      headers: tasksBearer,
      expectBody: tasksV2Reply.body.toString('utf8'),
      sampleRss: true,
      responseBytes: tasksV2Reply.body.length,
      description: `Statehouse: ${TASKS_V2_PATH} of an entity with ${tasksEntity.total} tasks (${tasksResponse.d2.tasks} of ${tasksResponse.d2.xTotal} returned)`,
    },
    // f0, f1: binary bodies, so no expectBody (autocannon decodes chunks as UTF-8 strings): the bytes were compared
    // above, and during the load status codes and the bytes of each response (minResponseWireBytes) are checked.
    {
      key: 'f0',
      name: 'bare-static-pdf',
      server: bareStaticPdf,
      url: bareStaticPdf.info.url as string,
      method: 'GET',
      sampleRss: false,
      minResponseWireBytes: staticPdfCheck.body.length,
      responseBytes: staticPdfCheck.body.length,
      description: 'node:http returning the exact bytes of one mail PDF from memory (application/pdf): the floor for a file download',
    },
    {
      key: 'f1',
      name: 'GET /files/mail/{id}',
      server: statehouse as Child<Record<string, unknown>>,
      url: fileUrl,
      method: 'GET',
      sampleRss: true,
      minResponseWireBytes: fileReply.body.length,
      responseBytes: fileReply.body.length,
      description:
        'Statehouse: the signed file_url of one mail item (no token): row lookup + HMAC check + the PDF streamed from the file store',
    },
    {
      key: 'g0',
      name: 'bare-pg-mail',
      server: barePgMail,
      url: barePgMail.info.url as string,
      method: 'GET',
      expectBody: pgMailCheck.body.toString('utf8'),
      sampleRss: false,
      responseBytes: pgMailCheck.body.length,
      description: `node:http + select * from mail_items where legal_entity_id = $1 order by received_on desc, id (${pgMailRows.length} rows, pg.Pool of 10) + JSON.stringify(rows): the floor for GET /v2/mail`,
    },
    {
      // Not expectBody: every file_url is signed afresh with the current second's expiry; compared without it.
      key: 'g1',
      name: 'GET /v2/mail',
      server: statehouse as Child<Record<string, unknown>>,
      url: `${sh.url}${MAIL_V2_PATH}`,
      method: 'GET',
      headers: bearer,
      verifyBody: (body) => unsigned(body) === mailCheck,
      sampleRss: true,
      responseBytes: mailReply.body.length,
      description: `Statehouse: ${MAIL_V2_PATH} of the demo entity with ${mailListing.length} mail items (each with a freshly signed file_url)`,
    },
  ];
}
