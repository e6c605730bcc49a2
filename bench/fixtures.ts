/**
 * The fixtures of the d, f and g targets: an entity with ~300 tasks (with the bare-pg-tasks server),
 * the demo entity's mail (with the bare-static-pdf and bare-pg-mail servers).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { benchPdf } from './pdf.js';
import { startChild } from './children.js';
import { expectStatus, request } from './http-client.js';
import { checkpoint } from './run-state.js';
import type { StatehouseInfo } from './setup.js';
import {
  MAIL_ITEMS,
  MAIL_PDF_BYTES,
  MAIL_SOURCES,
  MAIL_V2_PATH,
  POOL_SIZE,
  say,
  TASK_LOCATION_ORDER,
  TASKS_PATH,
  TASKS_PER_ENTITY,
  TASKS_V2_PATH,
  unsigned,
} from './settings.js';

/**
 * The d targets' entity: signed up through the API with the demo platform's key (a C corp incorporated
 * in Delaware), then given locations with employees and an office, one PUT /locations/{code} at a
 * time (each regenerates its tasks), until GET /v2/tasks counts at least BENCH_TASKS_PER_ENTITY tasks.
 */
async function createTasksEntity(
  baseUrl: string,
  apiKey: string,
): Promise<{ id: string; token: string; total: number; locations: string[] }> {
  const json = { authorization: apiKey, 'content-type': 'application/json' };
  const signup = await request(`${baseUrl}/accounts/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      user_email: 'owner@bench-tasks.example',
      business_name: 'Bench Tasks Inc',
      entity_type: 'c_corp',
      tax_classification: 'corp',
      incorporation_location: 'DE',
      incorporation_date: '2019-04-01',
    }),
  });
  expectStatus(signup, 200, 'POST /accounts/signup');
  const id = (JSON.parse(signup.body.toString('utf8')) as { legal_entity_id?: unknown }).legal_entity_id;
  if (typeof id !== 'string') throw new Error('POST /accounts/signup returned no legal_entity_id');
  const auth = await request(`${baseUrl}/accounts/auth`, { method: 'POST', headers: json, body: JSON.stringify({ legal_entity_id: id }) });
  expectStatus(auth, 200, 'POST /accounts/auth (d entity)');
  const token = (JSON.parse(auth.body.toString('utf8')) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new Error('POST /accounts/auth returned no access_token');
  const bearer = { authorization: `Bearer ${token}` };

  const count = async () => {
    const reply = await request(`${baseUrl}/v2/tasks?page_size=1`, { headers: bearer });
    expectStatus(reply, 200, 'GET /v2/tasks');
    const total = Number(reply.headers['x-total']);
    if (!Number.isInteger(total)) throw new Error(`GET /v2/tasks sent no X-Total header (got '${reply.headers['x-total']}')`);
    return total;
  };
  const locations: string[] = [];
  let total = await count();
  for (const code of TASK_LOCATION_ORDER) {
    if (total >= TASKS_PER_ENTITY) break;
    checkpoint();
    const put = await request(`${baseUrl}/locations/${code}`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ config: { has_employees: true, has_physical_location: true } }),
    });
    expectStatus(put, 200, `PUT /locations/${code}`);
    locations.push(code);
    total = await count();
  }
  if (total < TASKS_PER_ENTITY)
    say(`note: with all ${locations.length} locations the d entity has only ${total} tasks (wanted ${TASKS_PER_ENTITY})`);
  return { id, token, total, locations };
}

interface SeededMail {
  id: string;
  region: string;
  type: string;
  received: string;
  bytes: number;
  sha256: string;
}

/**
 * The f and g targets' mail: MAIL_ITEMS PDFs (benchPdf: ~100 KB, each different) uploaded one at a time
 * for the demo legal entity through the operator API, as an operator would: regions and senders in turn
 * (MAIL_SOURCES), every fourth `external-mail`, received on a different day each (1, 8, 15, … days ago).
 * Returns the items and the bytes of the first one (the f targets' file).
 */
async function seedMail(
  baseUrl: string,
  operatorKey: string,
  legalEntityId: string,
): Promise<{ items: SeededMail[]; first: Buffer; totalBytes: number }> {
  const items: SeededMail[] = [];
  let first: Buffer | null = null;
  let totalBytes = 0;
  const today = Date.now();
  for (let i = 0; i < MAIL_ITEMS; i++) {
    if (i % 10 === 0) checkpoint();
    const pdf = benchPdf(i, MAIL_PDF_BYTES);
    first ??= pdf;
    totalBytes += pdf.length;
    const source = MAIL_SOURCES[i % MAIL_SOURCES.length]!;
    const received = new Date(today - (1 + ((i * 7) % 1095)) * 86_400_000).toISOString().slice(0, 10);
    const query = new URLSearchParams({
      region: source.region,
      type: i % 4 === 3 ? 'external-mail' : 'registered-agent',
      sender: source.sender,
      received,
      file_name: `bench-mail-${String(i).padStart(4, '0')}.pdf`,
    });
    const reply = await request(`${baseUrl}/operator/v1/legal_entities/${encodeURIComponent(legalEntityId)}/mail?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/pdf' },
      body: pdf,
    });
    expectStatus(reply, 201, `POST /operator/v1/legal_entities/{id}/mail (item ${i})`);
    const item = JSON.parse(reply.body.toString('utf8')) as {
      id?: unknown;
      region?: unknown;
      type?: unknown;
      received?: unknown;
      file_size?: unknown;
      file_sha256?: unknown;
    };
    if (typeof item.id !== 'string' || item.file_size !== pdf.length)
      throw new Error(`mail upload ${i} answered ${reply.body.toString('utf8').slice(0, 300)}`);
    items.push({
      id: item.id,
      region: String(item.region),
      type: String(item.type),
      received: String(item.received),
      bytes: pdf.length,
      sha256: String(item.file_sha256),
    });
  }
  return { items, first: first!, totalBytes };
}

export async function prepareTasksFixture(sh: StatehouseInfo) {
  // 3b. An entity with ~300 tasks (d targets): a new legal entity of the demo platform, then locations with
  //     employees and an office (PUT /locations/{code} regenerates its tasks) until GET /v2/tasks counts enough.
  const tasksEntity = await createTasksEntity(sh.url, sh.apiKey);
  const tasksBearer = { authorization: `Bearer ${tasksEntity.token}` };
  const tasksReply = await request(`${sh.url}${TASKS_PATH}`, { headers: tasksBearer });
  expectStatus(tasksReply, 200, `GET ${TASKS_PATH}`);
  const tasksV2Reply = await request(`${sh.url}${TASKS_V2_PATH}`, { headers: tasksBearer });
  expectStatus(tasksV2Reply, 200, `GET ${TASKS_V2_PATH}`);
  for (const reply of [tasksReply, tasksV2Reply]) {
    if (reply.headers['content-encoding'])
      throw new Error(`a tasks response came back encoded (${reply.headers['content-encoding']}); the bench compares plain bytes`);
  }
  const barePgTasks = await startChild('bare-pg-tasks', 'bench/pg-server.ts', {
    ...process.env,
    BENCH_PG_URL: sh.connectionString,
    BENCH_PG_QUERY: 'tasks',
    BENCH_LEGAL_ENTITY_ID: tasksEntity.id,
    BENCH_PG_POOL_SIZE: String(POOL_SIZE),
  });
  const pgTasksCheck = await request(barePgTasks.info.url as string);
  expectStatus(pgTasksCheck, 200, 'bare-pg-tasks');
  const pgTaskRows = JSON.parse(pgTasksCheck.body.toString('utf8')) as unknown[];
  const tasksResponse = {
    entityId: tasksEntity.id,
    locations: tasksEntity.locations,
    /** X-Total of GET /v2/tasks without filters: every task of the entity. */
    tasks: tasksEntity.total,
    /** Rows the bare server's query returns (every task row, applicable or not). */
    rows: pgTaskRows.length,
    d1: { path: TASKS_PATH, bytes: tasksReply.body.length, tasks: (JSON.parse(tasksReply.body.toString('utf8')) as unknown[]).length },
    d2: {
      path: TASKS_V2_PATH,
      bytes: tasksV2Reply.body.length,
      tasks: (JSON.parse(tasksV2Reply.body.toString('utf8')) as unknown[]).length,
      xTotal: Number(tasksV2Reply.headers['x-total']),
    },
    d0: { bytes: pgTasksCheck.body.length },
  };
  if (pgTaskRows.length !== tasksEntity.total)
    throw new Error(`bare-pg-tasks returned ${pgTaskRows.length} rows, GET /v2/tasks counts ${tasksEntity.total} tasks`);
  say(
    `d entity ${tasksEntity.id}: ${tasksEntity.total} tasks over ${tasksEntity.locations.length} locations (${tasksEntity.locations.join(' ')}); ` +
      `GET /tasks returns ${tasksResponse.d1.tasks} (${tasksResponse.d1.bytes} B), GET /v2/tasks ${tasksResponse.d2.tasks} of ${tasksResponse.d2.xTotal} (${tasksResponse.d2.bytes} B), ` +
      `bare-pg-tasks ${tasksResponse.rows} rows (${tasksResponse.d0.bytes} B)`,
  );
  checkpoint();
  return { tasksEntity, tasksBearer, tasksReply, tasksV2Reply, barePgTasks, pgTasksCheck, tasksResponse };
}

export async function prepareMailFixture(sh: StatehouseInfo, bearer: Record<string, string>, tempDir: string) {
  // 3c. Mail for the f and g targets: MAIL_ITEMS PDFs uploaded (untimed) for the demo entity through the operator API;
  //     its listing (g1) with the demo token, the first PDF through its signed file_url (f1), and two more bare servers.
  const t2 = Date.now();
  const mail = await seedMail(sh.url, sh.operatorKey, sh.legalEntityId);
  const mailSeedSeconds = (Date.now() - t2) / 1000;
  const mailReply = await request(`${sh.url}${MAIL_V2_PATH}`, { headers: bearer });
  expectStatus(mailReply, 200, `GET ${MAIL_V2_PATH}`);
  if (mailReply.headers['content-encoding'])
    throw new Error(`GET ${MAIL_V2_PATH} came back encoded (${mailReply.headers['content-encoding']}); the bench compares plain bytes`);
  const mailListing = JSON.parse(mailReply.body.toString('utf8')) as { id: string; file_url: string }[];
  const seededIds = new Set(mail.items.map((m) => m.id));
  const listed = mailListing.filter((m) => seededIds.has(m.id)).length;
  if (listed !== mail.items.length) throw new Error(`GET ${MAIL_V2_PATH} lists ${listed} of the ${mail.items.length} items just uploaded`);
  // With BENCH_DATABASE_URL the demo entity keeps the mail of earlier runs (whose files went with their temp dirs).
  if (mailListing.length !== mail.items.length)
    say(`note: the demo entity has ${mailListing.length} mail items, ${mailListing.length - mail.items.length} of them from earlier runs`);
  const mailCheck = unsigned(mailReply.body.toString('utf8'));
  if (mailCheck === mailReply.body.toString('utf8')) throw new Error(`GET ${MAIL_V2_PATH}: no signed file_url found in the listing`);
  // The file_url's origin is PUBLIC_BASE_URL (unset here, so it names port 0): keep its path and query, use the server's address.
  const fileItem = mailListing.find((m) => m.id === mail.items[0]!.id)!;
  const fileLink = new URL(fileItem.file_url);
  const fileUrl = `${sh.url}${fileLink.pathname}${fileLink.search}`;
  const fileReply = await request(fileUrl);
  expectStatus(fileReply, 200, `GET ${fileLink.pathname}`);
  if (fileReply.headers['content-type'] !== 'application/pdf')
    throw new Error(`GET ${fileLink.pathname} answered ${fileReply.headers['content-type']}, expected application/pdf`);
  if (!fileReply.body.equals(mail.first))
    throw new Error(
      `GET ${fileLink.pathname} did not return the uploaded bytes (${fileReply.body.length} B, uploaded ${mail.first.length} B)`,
    );
  // f0's body is too large for an environment variable (base64 of ~100 KB > Linux's 128 KiB per variable): a file.
  const pdfFile = path.join(tempDir, 'bench-mail-0000.pdf');
  await fs.writeFile(pdfFile, mail.first);
  const bareStaticPdf = await startChild('bare-static-pdf', 'bench/static-server.ts', {
    ...process.env,
    BENCH_BODY_FILE: pdfFile,
    BENCH_CONTENT_TYPE: 'application/pdf',
  });
  const staticPdfCheck = await request(bareStaticPdf.info.url as string);
  expectStatus(staticPdfCheck, 200, 'bare-static-pdf');
  if (!staticPdfCheck.body.equals(mail.first)) throw new Error("bare-static-pdf does not return the PDF's bytes");
  const barePgMail = await startChild('bare-pg-mail', 'bench/pg-server.ts', {
    ...process.env,
    BENCH_PG_URL: sh.connectionString,
    BENCH_PG_QUERY: 'mail',
    BENCH_LEGAL_ENTITY_ID: sh.legalEntityId,
    BENCH_PG_POOL_SIZE: String(POOL_SIZE),
  });
  const pgMailCheck = await request(barePgMail.info.url as string);
  expectStatus(pgMailCheck, 200, 'bare-pg-mail');
  const pgMailRows = JSON.parse(pgMailCheck.body.toString('utf8')) as { id: string }[];
  if (pgMailRows.map((r) => r.id).join() !== mailListing.map((m) => m.id).join()) {
    throw new Error(
      `bare-pg-mail returned ${pgMailRows.length} rows, not the ${mailListing.length} items of GET ${MAIL_V2_PATH} in the same order`,
    );
  }
  const regions = [...new Set(mail.items.map((m) => m.region))];
  const receivedDays = mail.items.map((m) => m.received).sort();
  const mailResponse = {
    entityId: sh.legalEntityId,
    items: mail.items.length,
    listed: mailListing.length,
    seedSeconds: mailSeedSeconds,
    pdfBytes: {
      min: Math.min(...mail.items.map((m) => m.bytes)),
      max: Math.max(...mail.items.map((m) => m.bytes)),
      total: mail.totalBytes,
    },
    regions,
    received: { first: receivedDays[0]!, last: receivedDays[receivedDays.length - 1]! },
    externalMail: mail.items.filter((m) => m.type === 'external-mail').length,
    f0: { bytes: staticPdfCheck.body.length },
    f1: { path: fileLink.pathname, mailId: fileItem.id, bytes: fileReply.body.length, sha256: mail.items[0]!.sha256 },
    g0: { bytes: pgMailCheck.body.length, rows: pgMailRows.length },
    g1: { path: MAIL_V2_PATH, bytes: mailReply.body.length, items: mailListing.length },
  };
  say(
    `mail: ${mail.items.length} PDFs (${(mail.totalBytes / 1048576).toFixed(1)} MiB) uploaded in ${mailSeedSeconds.toFixed(1)} s for ${sh.legalEntityId}; ` +
      `GET ${MAIL_V2_PATH} ${mailReply.body.length} B, bare-pg-mail ${pgMailRows.length} rows (${pgMailCheck.body.length} B), f1 ${fileLink.pathname} ${fileReply.body.length} B`,
  );
  checkpoint();
  return {
    mailReply,
    mailListing,
    mailCheck,
    fileUrl,
    fileReply,
    bareStaticPdf,
    staticPdfCheck,
    barePgMail,
    pgMailCheck,
    pgMailRows,
    mailResponse,
  };
}
