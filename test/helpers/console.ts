import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/database.js';
import { createAuditModule } from '../../src/modules/audit/index.js';
import type { ConsoleRole } from '../../src/modules/console/contract.js';
import { createConsoleModule } from '../../src/modules/console/index.js';
import { cookieSet, operatorBrowser, ORIGIN, type OperatorBrowser } from './back-office.js';

export { ORIGIN };
/** The console's cookie over plain http (over https it is `__Host-statehouse_console`). */
export const CONSOLE_COOKIE = 'statehouse_console';
export const PASSWORD = 'correct horse battery staple';

/** A browser of the console: its cookie and the CSRF token of the last page it saw (the back office's test browser). */
export type ConsoleBrowser = OperatorBrowser;

/** `statehouse console invite` as the CLI does it: a one-time link. */
export function inviteLink(db: Db, platformId: string, email: string, role: ConsoleRole = 'admin') {
  return createConsoleModule({
    db,
    publicBaseUrl: ORIGIN,
    audit: createAuditModule({ db }).audit,
    platformExists: async () => true,
  }).users.invite(platformId, { email, role }, null);
}

const form = (app: FastifyInstance, url: string, fields: Record<string, string>, origin = ORIGIN) =>
  app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
  });

/** Opens an invitation link and chooses a password, as its person does; the browser is signed in when it worked. */
export async function acceptInvite(
  app: FastifyInstance,
  url: string,
  password = PASSWORD,
): Promise<{ response: LightMyRequestResponse; browser: ConsoleBrowser | null }> {
  const page = await app.inject({ url: new URL(url).pathname });
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
  if (page.statusCode !== 200 || !token) return { response: page, browser: null };
  const response = await form(app, '/console/invite', { token, password, confirm: password });
  const set = cookieSet(response);
  return { response, browser: response.statusCode === 303 && set ? operatorBrowser(app, set.pair) : null };
}

export async function consoleSignIn(
  app: FastifyInstance,
  email: string,
  password = PASSWORD,
  origin = ORIGIN,
): Promise<{ response: LightMyRequestResponse; browser: ConsoleBrowser | null }> {
  const response = await form(app, '/console/sign-in', { email, password }, origin);
  const set = cookieSet(response);
  return { response, browser: response.statusCode === 303 && set ? operatorBrowser(app, set.pair) : null };
}

/** A console user of the platform with this role, signed in. */
export async function consoleUser(app: FastifyInstance, db: Db, platformId: string, email: string, role: ConsoleRole) {
  const { browser } = await acceptInvite(app, (await inviteLink(db, platformId, email, role)).url);
  if (!browser) throw new Error(`could not sign ${email} in`);
  return browser;
}
