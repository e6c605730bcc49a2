import type { FastifyInstance } from 'fastify';
import { formOf } from '../../http/pages.js';
import { csrfInput, selectField, textField } from '../../pages/components.js';
import { html } from '../../pages/html.js';
import type { AuditService } from '../audit/contract.js';
import { CONSOLE_ROLES, isConsoleRole, ROLE_LABELS } from './contract.js';
import { consoleErrorPage, consoleOf, requireConsole, type ConsoleHttp } from './console.http.js';
import { noticeOf, type PageRenderer } from './console.pages.js';
import { emailProblem, INVITE_HOURS, type ConsoleUsersService, type IssuedInvite } from './console-users.service.js';
import { notice } from './console.views.js';
import type { ConsoleOperations } from './console.ports.js';

export interface ConsoleUsersDeps extends ConsoleHttp {
  page: PageRenderer;
  users: ConsoleUsersService;
  platform: Pick<ConsoleOperations, 'keys' | 'endpoints'>;
  audit: Pick<AuditService, 'listConsole'>;
}

const ROLE_OPTIONS = CONSOLE_ROLES.map((r) => [r, ROLE_LABELS[r]] as const);
const AUDIT_PAGE = 100;

/** Home (the platform at a glance), users (admins invite, change roles, remove) and the console's audit trail. */
export function consoleUserRoutes(deps: ConsoleUsersDeps) {
  return async (app: FastifyInstance) => {
    app.setErrorHandler(consoleErrorPage);
    const schema = { hide: true };
    const viewer = { schema, preHandler: requireConsole(deps) };
    const admin = { schema, preHandler: requireConsole(deps, 'admin') };
    type Req = Parameters<PageRenderer>[0];
    type Rep = Parameters<PageRenderer>[1];

    app.get('/console', viewer, async (request, reply) => {
      const { platformId } = consoleOf(request).actor;
      const [keys, endpoints, users] = await Promise.all([
        deps.platform.keys.list(platformId),
        deps.platform.endpoints.list(platformId),
        deps.users.list(platformId),
      ]);
      return deps.page(request, reply, {
        title: 'Home',
        current: '/console',
        body: () => html`<h1>Your platform</h1>
<dl class="summary">
<div><dt>Platform id</dt><dd><code>${platformId}</code></dd></div>
<div><dt>Live API keys</dt><dd>${keys.filter((k) => !k.revoked_at).length}</dd></div>
<div><dt>Webhook endpoints</dt><dd>${endpoints.length} (${endpoints.filter((e) => e.status === 'enabled').length} enabled)</dd></div>
<div><dt>Console users</dt><dd>${users.length}</dd></div>
</dl>`,
      });
    });

    const usersPage = async (request: Req, reply: Rep, extra: { error?: string; invite?: IssuedInvite } = {}) => {
      const context = consoleOf(request);
      const users = await deps.users.list(context.actor.platformId);
      const typed = extra.error ? formOf(request) : {};
      return deps.page(request, reply, {
        title: `${extra.error ? 'Error: ' : ''}Users`,
        current: '/console/users',
        status: extra.error ? 422 : 200,
        body: (can, csrf) => html`<h1>Users</h1>
${notice(noticeOf(request.query))}
${extra.invite ? html`<div class="notice success" role="status"><p>Send this one-time link to ${extra.invite.email}; it works once, for ${INVITE_HOURS} hours:</p><code class="secret">${extra.invite.url}</code></div>` : ''}
${
  can('admin')
    ? html`<form method="post" action="/console/users" novalidate>${csrfInput(csrf)}
${textField({ name: 'email', label: 'E-mail of the person to invite', type: 'email', value: typed.email ?? '', error: extra.error ?? null, required: true })}
${selectField({ name: 'role', label: 'Role', value: typed.role ?? 'developer', options: ROLE_OPTIONS, required: true })}
<button type="submit">Invite</button></form>`
    : ''
}
<ul class="rows">${users.map(
          (
            u,
          ) => html`<li><strong>${u.email}</strong> <span class="badge">${ROLE_LABELS[u.role]}</span>${u.id === context.actor.userId ? ' (you)' : ''}
${
  can('admin') && u.id !== context.actor.userId
    ? html`<div class="task-actions"><form method="post" action="/console/users/${u.id}/role">${csrfInput(csrf)}
${selectField({ name: 'role', label: `Role of ${u.email}`, value: u.role, options: ROLE_OPTIONS })}<button type="submit" class="secondary">Change role of ${u.email}</button></form>
<form method="post" action="/console/users/${u.id}/remove">${csrfInput(csrf)}<button type="submit" class="secondary">Remove ${u.email}</button></form></div>`
    : ''
}</li>`,
        )}</ul>`,
      });
    };

    app.get('/console/users', viewer, (request, reply) => usersPage(request, reply));
    app.post('/console/users', admin, async (request, reply) => {
      const form = formOf(request);
      const email = (form.email ?? '').trim();
      const problem = emailProblem(email) ?? (isConsoleRole(form.role) ? null : 'Choose a role');
      if (problem) return usersPage(request, reply, { error: problem });
      const role = isConsoleRole(form.role) ? form.role : 'read_only';
      try {
        const invite = await deps.users.invite(consoleOf(request).actor.platformId, { email, role }, consoleOf(request).actor);
        return await usersPage(request, reply, { invite });
      } catch (error) {
        if ((error as { status?: number }).status !== 409) throw error;
        return usersPage(request, reply, { error: (error as Error).message });
      }
    });
    app.post<{ Params: { id: string } }>('/console/users/:id/role', admin, async (request, reply) => {
      const role = formOf(request).role;
      if (!isConsoleRole(role)) return usersPage(request, reply, { error: 'Choose a role' });
      await deps.users.changeRole(consoleOf(request).actor, request.params.id, role);
      return reply.redirect('/console/users?notice=role-changed', 303);
    });
    app.post<{ Params: { id: string } }>('/console/users/:id/remove', admin, async (request, reply) => {
      await deps.users.remove(consoleOf(request).actor, request.params.id);
      return reply.redirect('/console/users?notice=user-removed', 303);
    });

    app.get('/console/audit', viewer, async (request, reply) => {
      const events = await deps.audit.listConsole(consoleOf(request).actor.platformId, AUDIT_PAGE);
      return deps.page(request, reply, {
        title: 'Audit',
        current: '/console/audit',
        body: () => html`<h1>Audit</h1><p>What your console users did, newest first (the last ${AUDIT_PAGE}).</p>
<ul class="rows">${events.map(
          (e) =>
            html`<li><strong>${e.action}</strong> <span class="muted">${e.created_at}</span><br>${e.user.email} · ${e.subject.type} <code>${e.subject.id}</code></li>`,
        )}</ul>`,
      });
    });
  };
}
