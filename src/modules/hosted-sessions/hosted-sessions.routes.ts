import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BrowserSessionRow } from '../../db/schema.js';
import { packagePath } from '../../lib/package-root.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { EXPIRED_MESSAGE, sendPage, sessionCookie } from './hosted-http.js';
import { BROWSER_SESSION_MINUTES, HOSTED_SESSION_PATH, type HostedSessionsService } from './hosted-sessions.service.js';

const STYLESHEET = readFileSync(packagePath('public', 'statehouse.css'), 'utf8');
const TokenParams = Type.Object({ token: Type.String({ maxLength: 128 }) });

/** Where each kind of hosted session lands once its link is opened. */
export function landingPath(session: Pick<BrowserSessionRow, 'purpose' | 'scope'>): string {
  switch (session.purpose) {
    case 'signup': return '/hosted/signup';
    case 'tasks': return '/hosted/tasks';
    case 'task': return `/hosted/tasks/${encodeURIComponent(session.scope.task_id ?? '')}`;
    case 'automation': return `/hosted/automation/${encodeURIComponent(session.scope.task_id ?? '')}`;
    case 'payroll': return '/hosted/payroll';
    case 'login': return `/hosted/logins/${encodeURIComponent(session.scope.login_id ?? '')}`;
    case 'accounts': return '/hosted/accounts';
    case 'documents': return '/hosted/documents';
    case 'connect': return `/hosted/connections/${encodeURIComponent(session.scope.connection_id ?? '')}`;
    case 'handbook': return '/hosted/handbook';
  }
}

/** GET /hosted/s/{token}: the session exchange every hosted link goes through; and the pages' shared stylesheet. */
export function hostedSessionRoutes(deps: { sessions: Pick<HostedSessionsService, 'exchange'>; secureCookies: boolean }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const hide = { hide: true } as const;

    r.get('/hosted/assets/statehouse.css', { schema: hide }, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(STYLESHEET));

    // Opening a link uses it up: it becomes a cookie session and the browser moves to a clean URL,
    // so the secret is neither kept in the history nor reusable by whoever sees it later.
    r.get(`${HOSTED_SESSION_PATH}:token`, { schema: { ...hide, params: TokenParams } }, async (request, reply) => {
      const result = await deps.sessions.exchange(request.params.token);
      if (result.state !== 'ok') return sendPage(reply, renderMessagePage(EXPIRED_MESSAGE), { status: result.state === 'unknown' ? 404 : 410 });
      return reply
        .header('set-cookie', sessionCookie(result.cookieToken, deps.secureCookies, BROWSER_SESSION_MINUTES * 60))
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store')
        .redirect(landingPath(result.session), 303);
    });
  };
}
