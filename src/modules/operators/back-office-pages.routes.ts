import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString } from '../../http/schemas.js';
import { HttpError } from '../../lib/errors.js';
import { renderOperatorLinkConfirm, renderOperatorMessage, renderSignIn } from '../../pages/operator-pages.js';
import { formOf, isSameOrigin, parseCookies, sendPage } from '../../http/pages.js';
import {
  backOfficeErrorPage,
  clearOperatorCookie,
  operatorCookie,
  operatorCookieName,
  requireOperatorSession,
  type BackOfficeHttp,
} from './back-office.http.js';
import type { OperatorSessionsService } from './operator-sessions.service.js';

const NOTICES: Record<string, string> = { 'signed-out': 'You are signed out.' };

/** Sign-in with an operator key, the one-time links of `statehouse operators login`, and sign-out. */
export function backOfficeSessionRoutes(deps: BackOfficeHttp & { sessions: OperatorSessionsService }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    app.setErrorHandler(backOfficeErrorPage);
    const hide = { hide: true };
    const signedIn = (reply: FastifyReply, opened: { cookieToken: string; maxAgeSeconds: number }) =>
      reply.header('set-cookie', operatorCookie(deps.secureCookies, opened.cookieToken, opened.maxAgeSeconds));

    r.get(
      '/operator/sign-in',
      { schema: { ...hide, querystring: Type.Object({ notice: Type.Optional(BoundedString(40)) }) } },
      async (request, reply) => sendPage(reply, renderSignIn({ notice: NOTICES[request.query.notice ?? ''] ?? null })),
    );

    // No session yet, so no CSRF token: the post must come from our own origin, and the cookie is SameSite=Strict.
    r.post('/operator/sign-in', { schema: hide }, async (request, reply) => {
      if (!isSameOrigin(request, deps.publicOrigin)) {
        return sendPage(reply, renderOperatorMessage({ title: 'This form has expired', body: 'Reload the page and try again.' }), {
          status: 403,
        });
      }
      const key = formOf(request).key?.trim();
      if (!key) return sendPage(reply, renderSignIn({ error: 'Enter your operator key' }), { status: 422 });
      try {
        signedIn(reply, await deps.sessions.signIn(key));
      } catch (error) {
        if (!(error instanceof HttpError && error.status === 401)) throw error;
        return sendPage(reply, renderSignIn({ error: 'That is not a live operator key' }), { status: 401 });
      }
      return reply.redirect('/operator', 303);
    });

    const linkUnusable = (reply: FastifyReply) =>
      sendPage(
        reply.header('x-robots-tag', 'noindex'),
        renderOperatorMessage({
          title: 'This link cannot be used',
          body: 'Sign-in links work once and for 10 minutes. Run statehouse operators login again, or sign in with your key.',
          signInLink: true,
        }),
        { status: 401 },
      );

    // Opening a link only shows whom it signs in: mail security scanners fetch links before their person does.
    r.get('/operator/link/:token', { schema: { ...hide, params: Type.Object({ token: BoundedString(200) }) } }, async (request, reply) => {
      const preview = await deps.sessions.previewLink(request.params.token);
      if (!preview) return linkUnusable(reply);
      return sendPage(
        reply.header('x-robots-tag', 'noindex'),
        renderOperatorLinkConfirm({ operatorName: preview.operatorName, token: request.params.token }),
      );
    });

    // The button uses the link up. It posts from our own page, so the redirect that follows is same-site and
    // carries the SameSite=Strict cookie (a link opened from another application would not).
    r.post('/operator/link', { schema: hide }, async (request, reply) => {
      if (!isSameOrigin(request, deps.publicOrigin)) {
        return sendPage(
          reply,
          renderOperatorMessage({ title: 'This form has expired', body: 'Open the link again and continue from its page.' }),
          { status: 403 },
        );
      }
      const opened = await deps.sessions.exchangeLink(formOf(request).token ?? '');
      if (!opened) return linkUnusable(reply);
      return signedIn(reply, opened).header('cache-control', 'no-store').redirect('/operator', 303);
    });

    r.post('/operator/sign-out', { schema: hide, preHandler: requireOperatorSession(deps) }, async (request, reply) => {
      await deps.sessions.signOut(parseCookies(request.headers.cookie)[operatorCookieName(deps.secureCookies)]);
      return reply.header('set-cookie', clearOperatorCookie(deps.secureCookies)).redirect('/operator/sign-in?notice=signed-out', 303);
    });
  };
}
