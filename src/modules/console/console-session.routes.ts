import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString } from '../../http/schemas.js';
import { formOf, isSameOrigin, sendPage } from '../../http/pages.js';
import { consoleCookie, consoleErrorPage, consoleOf, formExpired, requireConsole, type ConsoleHttp } from './console.http.js';
import type { ConsoleSessionsService } from './console-sessions.service.js';
import type { ConsoleUsersService } from './console-users.service.js';
import { renderAcceptInvite, renderConsoleMessage, renderConsoleSignIn } from './console.views.js';

const NOTICES: Record<string, string> = { 'signed-out': 'You are signed out.' };
const GENERIC_REFUSAL = 'That e-mail and password do not match an account';

/** Sign-in with e-mail and password, invitation links (choose a password), sign-out. */
export function consoleSessionRoutes(deps: ConsoleHttp & { sessions: ConsoleSessionsService; users: ConsoleUsersService }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    app.setErrorHandler(consoleErrorPage);
    const hide = { hide: true };
    // Counted against the stricter limit of token-issuing operations; each refusal (401) counts as a failed authentication.
    const limited = { rateLimitClass: 'authentication' as const };
    const signedIn = (reply: FastifyReply, opened: { cookieToken: string; maxAgeSeconds: number }) =>
      reply.header('set-cookie', consoleCookie(deps.secureCookies, opened.cookieToken, opened.maxAgeSeconds));

    r.get(
      '/console/sign-in',
      { schema: { ...hide, querystring: Type.Object({ notice: Type.Optional(BoundedString(40)) }) } },
      async (request, reply) => sendPage(reply, renderConsoleSignIn({ notice: NOTICES[request.query.notice ?? ''] ?? null })),
    );

    // No session yet, so no CSRF token: the post must come from our own origin.
    r.post('/console/sign-in', { schema: hide, config: limited }, async (request, reply) => {
      if (!isSameOrigin(request, deps.publicOrigin)) return formExpired(reply);
      const form = formOf(request);
      const email = (form.email ?? '').trim();
      const password = form.password ?? '';
      if (!email || !password) {
        return sendPage(reply, renderConsoleSignIn({ error: 'Enter your e-mail and password', email }), { status: 422 });
      }
      const opened = await deps.sessions.signIn(email, password);
      if (!opened) return sendPage(reply, renderConsoleSignIn({ error: GENERIC_REFUSAL, email }), { status: 401 });
      return signedIn(reply, opened).redirect('/console', 303);
    });

    const inviteUnusable = (reply: FastifyReply) =>
      sendPage(
        reply.header('x-robots-tag', 'noindex'),
        renderConsoleMessage({
          title: 'This link cannot be used',
          body: 'Invitation links work once and for 24 hours. Ask an admin of your platform for a new one.',
          signInLink: true,
        }),
        { status: 401 },
      );

    r.get('/console/invite/:token', { schema: { ...hide, params: Type.Object({ token: BoundedString(200) }) } }, async (request, reply) => {
      const invite = await deps.users.previewInvite(request.params.token);
      if (!invite) return inviteUnusable(reply);
      return sendPage(
        reply.header('x-robots-tag', 'noindex'),
        renderAcceptInvite({ email: invite.email, role: invite.role, token: request.params.token }),
      );
    });

    r.post('/console/invite', { schema: hide, config: limited }, async (request, reply) => {
      if (!isSameOrigin(request, deps.publicOrigin)) return formExpired(reply);
      const form = formOf(request);
      const token = form.token ?? '';
      const password = form.password ?? '';
      const result = await deps.users.acceptInvite(token, password, form.confirm ?? '');
      if (!result) return inviteUnusable(reply);
      if ('problem' in result) {
        const invite = await deps.users.previewInvite(token);
        if (!invite) return inviteUnusable(reply);
        return sendPage(reply, renderAcceptInvite({ email: invite.email, role: invite.role, token, error: result.problem }), {
          status: 422,
        });
      }
      const opened = await deps.sessions.signIn(result.email, password);
      if (!opened) return reply.redirect('/console/sign-in', 303);
      return signedIn(reply, opened).redirect('/console', 303);
    });

    r.post('/console/sign-out', { schema: hide, preHandler: requireConsole(deps) }, async (request, reply) => {
      await deps.sessions.signOut(consoleOf(request));
      return reply.header('set-cookie', consoleCookie(deps.secureCookies, '', 0)).redirect('/console/sign-in?notice=signed-out', 303);
    });
  };
}
