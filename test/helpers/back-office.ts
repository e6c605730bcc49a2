import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/database.js';
import { createOperatorsService } from '../../src/modules/operators/operators.service.js';
import { csrfOf } from './hosted.js';

/** The test apps' public origin (createTestApp's PUBLIC_BASE_URL). */
export const ORIGIN = 'http://statehouse.test';
/** The back office's cookie over plain http (over https it is `__Host-statehouse_operator`). */
export const COOKIE = 'statehouse_operator';

export const createOperatorKey = (db: Db, name: string) => createOperatorsService(db).createKey(name);

/** A browser of the back office: its cookie and the CSRF token of the last page it saw. */
export interface OperatorBrowser {
  cookie: string;
  csrf: string | null;
  get(path: string): Promise<LightMyRequestResponse>;
  post(path: string, form: Record<string, string>, options?: { csrf?: string | null; origin?: string }): Promise<LightMyRequestResponse>;
  /** A multipart form post (the outcome form with its PDF). */
  postMultipart(
    path: string,
    fields: Record<string, string>,
    file?: { field: string; name: string; bytes: Buffer },
  ): Promise<LightMyRequestResponse>;
}

export function operatorBrowser(app: FastifyInstance, cookie: string): OperatorBrowser {
  const browser: OperatorBrowser = {
    cookie,
    csrf: null,
    async get(path) {
      const res = await app.inject({ url: path, headers: { cookie } });
      browser.csrf = csrfOf(res.body) ?? browser.csrf;
      return res;
    },
    async post(path, form, options = {}) {
      const csrf = options.csrf === undefined ? browser.csrf : options.csrf;
      const res = await app.inject({
        method: 'POST',
        url: path,
        payload: new URLSearchParams({ ...form, ...(csrf ? { _csrf: csrf } : {}) }).toString(),
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: options.origin ?? ORIGIN },
      });
      browser.csrf = csrfOf(res.body) ?? browser.csrf;
      return res;
    },
    async postMultipart(path, fields, file) {
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...fields, ...(browser.csrf ? { _csrf: browser.csrf } : {}) })) form.set(name, value);
      if (file) form.set(file.field, new Blob([new Uint8Array(file.bytes)], { type: 'application/pdf' }), file.name);
      const request = new Request(`${ORIGIN}${path}`, { method: 'POST', body: form });
      const res = await app.inject({
        method: 'POST',
        url: path,
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { cookie, 'content-type': request.headers.get('content-type')!, origin: ORIGIN },
      });
      browser.csrf = csrfOf(res.body) ?? browser.csrf;
      return res;
    },
  };
  return browser;
}

/** The cookie a response sets (name=value), if any. */
export function cookieSet(response: LightMyRequestResponse): { pair: string; attributes: string } | null {
  const header = response.headers['set-cookie'];
  const line = Array.isArray(header) ? header[0] : header;
  if (!line) return null;
  const [pair, ...attributes] = line.split(';');
  return { pair: pair!.trim(), attributes: attributes.map((a) => a.trim()).join('; ') };
}

/** Signs in with the form, as a browser would; the browser is null when the sign-in was refused. */
export async function signIn(
  app: FastifyInstance,
  key: string,
): Promise<{ response: LightMyRequestResponse; browser: OperatorBrowser | null }> {
  const response = await app.inject({
    method: 'POST',
    url: '/operator/sign-in',
    payload: new URLSearchParams({ key }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
  });
  const set = cookieSet(response);
  return { response, browser: response.statusCode === 303 && set ? operatorBrowser(app, set.pair) : null };
}

/** Opens a one-time sign-in link as its operator does: its page (GET, which spends nothing), then its button. */
export async function openOperatorLink(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
  const page = await app.inject({ url: new URL(url).pathname });
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
  if (page.statusCode !== 200 || !token) return page;
  return app.inject({
    method: 'POST',
    url: '/operator/link',
    payload: new URLSearchParams({ token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
  });
}
