import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BrowserSessionRow } from '../../db/schema.js';
import { packagePath } from '../../lib/package-root.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { ACCENT_STYLESHEET_PATH, accentStylesheet, LOGO_PATH } from '../../pages/brand.js';
import { renderLinkConfirm } from '../../pages/link-pages.js';
import { formOf, isSameOrigin, sendPage } from '../../http/pages.js';
import { EXPIRED_MESSAGE, SESSION_COOKIE, BROWSER_SESSION_MINUTES, HOSTED_SESSION_PATH, type HostedSessionsService } from './contract.js';

const STYLESHEET = readFileSync(packagePath('public', 'statehouse.css'), 'utf8');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const TokenParams = Type.Object({ token: Type.String({ maxLength: 128 }) });
/** Where a link's confirmation button posts; the token travels in the form body, never in this URL. */
export const HOSTED_LINK_CONFIRM_PATH = HOSTED_SESSION_PATH.slice(0, -1);

/** Where each kind of hosted session lands once its link is opened. */
function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/hosted; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function landingPath(session: Pick<BrowserSessionRow, 'purpose' | 'scope'>): string {
  switch (session.purpose) {
    case 'signup':
      return '/hosted/signup';
    case 'tasks':
      return '/hosted/tasks';
    case 'task':
      return `/hosted/tasks/${encodeURIComponent(session.scope.task_id ?? '')}`;
    case 'automation':
      return `/hosted/automation/${encodeURIComponent(session.scope.task_id ?? '')}`;
    case 'payroll':
      return '/hosted/payroll';
    case 'login':
      return `/hosted/logins/${encodeURIComponent(session.scope.login_id ?? '')}`;
    case 'accounts':
      return '/hosted/accounts';
    case 'documents':
      return '/hosted/documents';
    case 'connect':
      return `/hosted/connections/${encodeURIComponent(session.scope.connection_id ?? '')}`;
    case 'handbook':
      return '/hosted/handbook';
  }
}

/**
 * The session exchange every hosted link goes through: GET /hosted/s/{token} shows what the link opens, its
 * button POSTs the token to /hosted/s; and the pages' shared stylesheet.
 */
export function hostedSessionRoutes(deps: {
  sessions: Pick<HostedSessionsService, 'exchange' | 'preview' | 'logo'>;
  secureCookies: boolean;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const hide = { hide: true } as const;
    const linkGone = (reply: FastifyReply, state: 'used' | 'expired' | 'unknown') =>
      sendPage(reply.header('x-robots-tag', 'noindex'), renderMessagePage(EXPIRED_MESSAGE), { status: state === 'unknown' ? 404 : 410 });

    r.get('/hosted/assets/statehouse.css', { schema: hide }, async (_request, reply) =>
      reply
        .type('text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(STYLESHEET),
    );

    // A platform's brand (docs/hosted-pages.md, "Platform branding"): named by their content, so cached for good.
    r.get(
      `${ACCENT_STYLESHEET_PATH}:file`,
      { schema: { ...hide, params: Type.Object({ file: Type.String({ maxLength: 20 }) }) } },
      async (request, reply) => {
        const hex = /^([0-9a-f]{6})\.css$/.exec(request.params.file)?.[1];
        if (!hex) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
        return reply
          .type('text/css; charset=utf-8')
          .header('cache-control', IMMUTABLE)
          .header('x-content-type-options', 'nosniff')
          .send(accentStylesheet(hex));
      },
    );
    r.get(
      `${LOGO_PATH}:sha256`,
      { schema: { ...hide, params: Type.Object({ sha256: Type.String({ maxLength: 64 }) }) } },
      async (request, reply) => {
        const logo = await deps.sessions.logo(request.params.sha256);
        if (!logo) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
        return reply
          .type(logo.logo_content_type)
          .header('cache-control', IMMUTABLE)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(logo.logo);
      },
    );

    // Opening a link (GET, and the HEAD Fastify answers from it) only reads it: mail security scanners fetch
    // links before their person does, and a link they spent would greet its person with "expired".
    r.get(`${HOSTED_SESSION_PATH}:token`, { schema: { ...hide, params: TokenParams } }, async (request, reply) => {
      const preview = await deps.sessions.preview(request.params.token);
      if (preview.state !== 'ok') return linkGone(reply, preview.state);
      return sendPage(
        reply.header('x-robots-tag', 'noindex'),
        renderLinkConfirm({
          ...preview,
          action: HOSTED_LINK_CONFIRM_PATH,
          token: request.params.token,
          sessionMinutes: BROWSER_SESSION_MINUTES,
        }),
      );
    });

    // The confirmation uses the link up: it becomes a cookie session and the browser moves to a clean URL, so
    // the secret is neither kept in the history nor reusable by whoever sees it later. Same-origin only: no
    // other site may sign a browser in to a session of its choosing.
    r.post(HOSTED_LINK_CONFIRM_PATH, { schema: hide }, async (request, reply) => {
      if (!isSameOrigin(request, deps.publicOrigin)) {
        return sendPage(
          reply,
          renderMessagePage({ title: 'This form has expired', body: 'Open the link again and continue from its page.' }),
          { status: 403 },
        );
      }
      const token = formOf(request).token ?? '';
      const result = await deps.sessions.exchange(token);
      if (result.state !== 'ok') return linkGone(reply, result.state);
      return reply
        .header('set-cookie', sessionCookie(result.cookieToken, deps.secureCookies, BROWSER_SESSION_MINUTES * 60))
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store')
        .redirect(landingPath(result.session), 303);
    });
  };
}
