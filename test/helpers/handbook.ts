import type { FastifyInstance } from 'fastify';
import { loadHandbookCatalog } from '../../src/catalog/handbook.js';
import type { HandbookQuestion } from '../../src/catalog/handbook.schema.js';
import { bearer, json } from './app.js';
import { openLink, type HostedBrowser } from './hosted.js';

/** The real policy catalog: expectations are computed from it, never hard-coded (other branches grow it). */
export const HANDBOOK_CATALOG = loadHandbookCatalog();

/** A valid form answer for any handbook question. */
export function validAnswer(q: HandbookQuestion): string {
  if (q.type === 'boolean') return String(q.default ?? false);
  if (q.type === 'integer') return String(q.default ?? q.min ?? 1);
  if (q.type === 'choice') return String(q.default ?? q.choices![0]!.value);
  return 'Ana Lopez, ana@example.com';
}

/** The question fields (`q_<id>`) of a builder page. */
export const questionFields = (html: string) => [...new Set([...html.matchAll(/name="(q_[a-z0-9-]+)"/g)].map((m) => m[1]!))];

/** Opens a builder session (POST /v2/handbook/session) and returns the browser holding it. */
export async function openBuilder(app: FastifyInstance, token: string): Promise<HostedBrowser> {
  const res = await app.inject({
    method: 'POST',
    url: '/v2/handbook/session',
    headers: bearer(token),
    payload: { callback_url: 'https://platform.example/done' },
  });
  if (res.statusCode !== 200) throw new Error(`POST /v2/handbook/session: ${res.statusCode} ${res.body}`);
  const { browser, response } = await openLink(app, json<{ url: string }>(res).url);
  if (!browser) throw new Error(`builder link did not open: ${response.statusCode}`);
  return browser;
}

/** Answers every question the builder asks (with `overrides` by question id) until it moves on to the policies. */
export async function answerAllQuestions(browser: HostedBrowser, overrides: Record<string, string> = {}): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const page = await browser.get('/hosted/handbook/questions');
    const fields = questionFields(page.body);
    const form = Object.fromEntries(
      fields.map((f) => {
        const id = f.slice(2);
        return [f, overrides[id] ?? validAnswer(HANDBOOK_CATALOG.questions.get(id)!)];
      }),
    );
    const res = await browser.post('/hosted/handbook/questions', form);
    if (res.statusCode !== 303) throw new Error(`questions refused: ${res.statusCode}`);
    if (res.headers.location === '/hosted/handbook/policies') return;
  }
  throw new Error('the builder kept asking questions');
}

/** Publishes the draft as it is; the version number the builder shows. */
export async function publish(browser: HostedBrowser): Promise<void> {
  await browser.get('/hosted/handbook/publish');
  const res = await browser.post('/hosted/handbook/publish', {});
  if (res.statusCode !== 303) throw new Error(`publish refused: ${res.statusCode} ${res.body.slice(0, 500)}`);
}

/** The employees' acknowledgement links on the published page, by employee name. */
export async function ackLinks(browser: HostedBrowser): Promise<Map<string, string>> {
  const page = await browser.get('/hosted/handbook/published');
  const out = new Map<string, string>();
  for (const m of page.body.matchAll(
    /<label for="ack-[^"]+">Personal link of ([^<]+)<\/label><input id="ack-[^"]+" type="text" readonly value="([^"]+)"/g,
  )) {
    out.set(m[1]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&'), m[2]!);
  }
  return out;
}

export const handbookSummary = async (app: FastifyInstance, token: string) =>
  json(await app.inject({ url: '/v2/handbook', headers: bearer(token) }));

/**
 * The whole builder as an owner walks it with defaults: every missing employee count (2), every question, one
 * employee; publishes and returns that employee's acknowledgement link.
 */
export async function publishWithOneEmployee(
  app: FastifyInstance,
  token: string,
  employee = { name: 'Ana Lopez', email: 'ana@example.com' },
): Promise<string> {
  const browser = await openBuilder(app, token);
  const states = await browser.get('/hosted/handbook/states');
  const counts = [...states.body.matchAll(/name="(count_[A-Z]{2})"[^>]*value="(\d*)"/g)].map((m) => [m[1]!, m[2] || '2']);
  if (counts.length) await browser.post('/hosted/handbook/states', Object.fromEntries(counts));
  await answerAllQuestions(browser);
  await browser.post('/hosted/handbook/employees', employee);
  await publish(browser);
  const link = (await ackLinks(browser)).get(employee.name);
  if (!link) throw new Error('no acknowledgement link for the employee');
  return link;
}

/** The employee acknowledges through their link (a form post, as their browser sends it). */
export async function acknowledge(app: FastifyInstance, link: string, typedName: string) {
  const url = new URL(link);
  return app.inject({
    method: 'POST',
    url: url.pathname,
    payload: new URLSearchParams({ typed_name: typedName }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}
