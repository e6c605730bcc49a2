import type { FastifyInstance } from 'fastify';
import { formOf } from '../../http/pages.js';
import { NotFoundError } from '../../lib/errors.js';
import { csrfInput, textField } from '../../pages/components.js';
import { html } from '../../pages/html.js';
import type { AuditService } from '../audit/contract.js';
import { consoleErrorPage, consoleOf, requireConsole, type ConsoleHttp } from './console.http.js';
import { noticeOf, refusalOf, type PageRenderer } from './console.pages.js';
import { notice } from './console.views.js';
import type { ConsoleOperations } from './console.ports.js';

export interface ConsolePlatformDeps extends ConsoleHttp {
  page: PageRenderer;
  keys: ConsoleOperations['keys'];
  origins: ConsoleOperations['origins'];
  brands: ConsoleOperations['brands'];
  audit: Pick<AuditService, 'recordConsole'>;
}

const fmt = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '');

/** API keys (admin acts), callback origins (admin acts), branding (admin acts); every role sees them. */
export function consolePlatformRoutes(deps: ConsolePlatformDeps) {
  return async (app: FastifyInstance) => {
    app.setErrorHandler(consoleErrorPage);
    const schema = { hide: true };
    const viewer = { schema, preHandler: requireConsole(deps) };
    const admin = { schema, preHandler: requireConsole(deps, 'admin') };

    const keysPage = async (
      request: Parameters<PageRenderer>[0],
      reply: Parameters<PageRenderer>[1],
      shown?: { key: string; hint: string },
    ) => {
      const keys = await deps.keys.list(consoleOf(request).actor.platformId);
      return deps.page(request, reply, {
        title: 'API keys',
        current: '/console/api-keys',
        body: (can, csrf) => html`<h1>API keys</h1>
${notice(noticeOf(request.query))}
${shown ? html`<div class="notice success" role="status"><p>New API key ${shown.hint}. It is shown once: copy it now.</p><code class="secret">${shown.key}</code></div>` : ''}
${can('admin') ? html`<form method="post" action="/console/api-keys">${csrfInput(csrf)}<button type="submit">Create an API key</button></form>` : ''}
<ul class="rows">${keys.map(
          (k) => html`<li><strong>${k.key_hint}</strong> <span class="muted">${k.id}</span><br>
<span class="muted">Created ${fmt(k.created_at)}${k.revoked_at ? ` · revoked ${fmt(k.revoked_at)}` : ''}</span>
${can('admin') && !k.revoked_at ? html`<form method="post" action="/console/api-keys/${k.id}/revoke">${csrfInput(csrf)}<button type="submit" class="secondary">Revoke ${k.key_hint}</button></form>` : ''}</li>`,
        )}</ul>`,
      });
    };

    app.get('/console/api-keys', viewer, (request, reply) => keysPage(request, reply));
    app.post('/console/api-keys', admin, async (request, reply) => {
      const { actor } = consoleOf(request);
      const issued = await deps.keys.create(actor.platformId);
      await deps.audit.recordConsole(null, { actor, action: 'api_key.create', subjectType: 'api_key', subjectId: issued.id });
      return keysPage(request, reply, issued);
    });
    app.post<{ Params: { id: string } }>('/console/api-keys/:id/revoke', admin, async (request, reply) => {
      const { actor } = consoleOf(request);
      await deps.keys.revoke(actor.platformId, request.params.id);
      await deps.audit.recordConsole(null, { actor, action: 'api_key.revoke', subjectType: 'api_key', subjectId: request.params.id });
      return reply.redirect('/console/api-keys?notice=revoked', 303);
    });

    const originsPage = async (
      request: Parameters<PageRenderer>[0],
      reply: Parameters<PageRenderer>[1],
      error?: string,
      value?: string,
    ) => {
      const origins = await deps.origins.list(consoleOf(request).actor.platformId);
      return deps.page(request, reply, {
        title: `${error ? 'Error: ' : ''}Callback origins`,
        current: '/console/callback-origins',
        status: error ? 422 : 200,
        body: (can, csrf) => html`<h1>Callback origins</h1>
${notice(noticeOf(request.query))}
<p>The hosted pages send a business back only to these origins. With none listed, development accepts any, production none.</p>
${can('admin') ? html`<form method="post" action="/console/callback-origins" novalidate>${csrfInput(csrf)}${textField({ name: 'origin', label: 'Origin', hint: 'e.g. https://app.example.com', value: value ?? '', error: error ?? null, required: true })}<button type="submit">Add origin</button></form>` : ''}
<ul class="rows">${origins.map(
          (o) => html`<li><code>${o}</code>
${can('admin') ? html`<form method="post" action="/console/callback-origins/remove">${csrfInput(csrf)}<input type="hidden" name="origin" value="${o}"><button type="submit" class="secondary">Remove ${o}</button></form>` : ''}</li>`,
        )}</ul>${origins.length === 0 ? html`<p class="muted">No callback origins yet.</p>` : ''}`,
      });
    };

    app.get('/console/callback-origins', viewer, (request, reply) => originsPage(request, reply));
    app.post('/console/callback-origins', admin, async (request, reply) => {
      const { actor } = consoleOf(request);
      const typed = (formOf(request).origin ?? '').trim();
      let origin: string;
      try {
        if (!typed) throw new Error('Enter an origin');
        origin = await deps.origins.add(actor.platformId, typed);
      } catch (error) {
        return originsPage(request, reply, refusalOf(error), typed);
      }
      await deps.audit.recordConsole(null, { actor, action: 'callback_origin.add', subjectType: 'callback_origin', subjectId: origin });
      return reply.redirect('/console/callback-origins?notice=origin-added', 303);
    });
    app.post('/console/callback-origins/remove', admin, async (request, reply) => {
      const { actor } = consoleOf(request);
      const origin = formOf(request).origin ?? '';
      const listed = await deps.origins.list(actor.platformId);
      if (!listed.includes(origin)) throw new NotFoundError('No such callback origin');
      await deps.origins.remove(actor.platformId, origin);
      await deps.audit.recordConsole(null, { actor, action: 'callback_origin.remove', subjectType: 'callback_origin', subjectId: origin });
      return reply.redirect('/console/callback-origins?notice=origin-removed', 303);
    });

    const brandPage = async (request: Parameters<PageRenderer>[0], reply: Parameters<PageRenderer>[1], error?: string) => {
      const brand = await deps.brands.get(consoleOf(request).actor.platformId);
      const form = error ? formOf(request) : {};
      return deps.page(request, reply, {
        title: `${error ? 'Error: ' : ''}Branding`,
        current: '/console/branding',
        status: error ? 422 : 200,
        body: (can, csrf) => html`<h1>Branding</h1>
${notice(noticeOf(request.query))}
${error ? html`<div class="error-summary" role="alert" tabindex="-1"><h2>${error}</h2></div>` : ''}
<p>How the hosted pages show your platform. Logo: ${brand.logo ? `${brand.logo.content_type}, ${brand.logo.size_bytes} bytes` : 'none'} (set with the operator's CLI for now).</p>
${
  can('admin')
    ? html`<form method="post" action="/console/branding" novalidate>${csrfInput(csrf)}
${textField({ name: 'display_name', label: 'Display name', value: form.display_name ?? brand.display_name ?? '' })}
${textField({ name: 'accent_color', label: 'Accent colour', hint: 'A hex colour, e.g. #0b5cad', value: form.accent_color ?? brand.accent_color ?? '' })}
<button type="submit">Save branding</button></form>`
    : html`<dl class="summary"><div><dt>Display name</dt><dd>${brand.display_name ?? '—'}</dd></div><div><dt>Accent colour</dt><dd>${brand.accent_color ?? '—'}</dd></div></dl>`
}`,
      });
    };

    app.get('/console/branding', viewer, (request, reply) => brandPage(request, reply));
    app.post('/console/branding', admin, async (request, reply) => {
      const { actor } = consoleOf(request);
      const form = formOf(request);
      const update = { display_name: form.display_name?.trim() || null, accent_color: form.accent_color?.trim() || null };
      try {
        await deps.brands.update(actor.platformId, update, (trx) =>
          deps.audit.recordConsole(trx, {
            actor,
            action: 'brand.update',
            subjectType: 'platform',
            subjectId: actor.platformId,
            details: update,
          }),
        );
      } catch (error) {
        return brandPage(request, reply, refusalOf(error));
      }
      return reply.redirect('/console/branding?notice=brand-saved', 303);
    });
  };
}
