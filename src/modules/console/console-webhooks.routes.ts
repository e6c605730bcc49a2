import type { FastifyInstance } from 'fastify';
import { formOf } from '../../http/pages.js';
import { csrfInput, selectField, textField } from '../../pages/components.js';
import { html } from '../../pages/html.js';
import type { AuditService } from '../audit/contract.js';
import { EVENT_TYPES, isEventType, type EventLogReader } from '../events/contract.js';
import type { WebhookEndpointsAdmin, WebhookTestEvents } from '../webhooks/contract.js';
import { consoleErrorPage, consoleOf, requireConsole, type ConsoleHttp } from './console.http.js';
import { noticeOf, refusalOf, type PageRenderer } from './console.pages.js';
import { notice } from './console.views.js';

export interface ConsoleWebhooksDeps extends ConsoleHttp {
  page: PageRenderer;
  endpoints: WebhookEndpointsAdmin;
  testEvents: WebhookTestEvents;
  events: EventLogReader;
  audit: Pick<AuditService, 'recordConsole'>;
}

const EVENTS_PAGE = 50;

/** Webhook endpoints (developers and admins act) and the event log (every role). */
export function consoleWebhookRoutes(deps: ConsoleWebhooksDeps) {
  return async (app: FastifyInstance) => {
    app.setErrorHandler(consoleErrorPage);
    const schema = { hide: true };
    const viewer = { schema, preHandler: requireConsole(deps) };
    const developer = { schema, preHandler: requireConsole(deps, 'developer') };
    type Req = Parameters<PageRenderer>[0];
    type Rep = Parameters<PageRenderer>[1];

    const endpointsPage = async (request: Req, reply: Rep, extra: { error?: string; secret?: { url: string; secret: string } } = {}) => {
      const endpoints = await deps.endpoints.list(consoleOf(request).actor.platformId);
      const typed = extra.error ? formOf(request) : {};
      return deps.page(request, reply, {
        title: `${extra.error ? 'Error: ' : ''}Webhook endpoints`,
        current: '/console/webhooks',
        status: extra.error ? 422 : 200,
        body: (can, csrf) => html`<h1>Webhook endpoints</h1>
${notice(noticeOf(request.query))}
${extra.secret ? html`<div class="notice success" role="status"><p>Endpoint ${extra.secret.url} created. Its signing secret is shown once: copy it now.</p><code class="secret">${extra.secret.secret}</code></div>` : ''}
${
  can('developer')
    ? html`<form method="post" action="/console/webhooks" novalidate>${csrfInput(csrf)}
${textField({ name: 'url', label: 'Endpoint URL', hint: 'https://… where events are posted', value: typed.url ?? '', error: extra.error ?? null, required: true })}
${selectField({ name: 'event_type', label: 'Events', hint: 'Leave as is for every type', value: typed.event_type ?? '', options: EVENT_TYPES.map((t) => [t, t] as const) })}
${textField({ name: 'description', label: 'Description', value: typed.description ?? '' })}
<button type="submit">Add endpoint</button></form>`
    : ''
}
<ul class="rows">${endpoints.map(
          (e) => html`<li><strong>${e.url}</strong> <span class="badge">${e.status}</span><br>
<span class="muted">${e.id} · ${e.event_types ? e.event_types.join(', ') : 'every event type'}${e.description ? ` · ${e.description}` : ''}</span>
${e.disabled_reason ? html`<br><span class="muted">Disabled: ${e.disabled_reason}</span>` : ''}
${
  can('developer')
    ? html`<div class="task-actions"><form method="post" action="/console/webhooks/${e.id}/${e.status === 'enabled' ? 'disable' : 'enable'}">${csrfInput(csrf)}<button type="submit" class="secondary">${e.status === 'enabled' ? 'Disable' : 'Enable'} ${e.url}</button></form>
${e.status === 'enabled' ? html`<form method="post" action="/console/webhooks/${e.id}/test">${csrfInput(csrf)}<button type="submit" class="secondary">Send test event to ${e.url}</button></form>` : ''}
<form method="post" action="/console/webhooks/${e.id}/delete">${csrfInput(csrf)}<button type="submit" class="secondary">Delete ${e.url}</button></form></div>`
    : ''
}</li>`,
        )}</ul>${endpoints.length === 0 ? html`<p class="muted">No webhook endpoints yet.</p>` : ''}`,
      });
    };

    app.get('/console/webhooks', viewer, (request, reply) => endpointsPage(request, reply));
    app.post('/console/webhooks', developer, async (request, reply) => {
      const { actor } = consoleOf(request);
      const form = formOf(request);
      const type = form.event_type ?? '';
      let created: Awaited<ReturnType<ConsoleWebhooksDeps['endpoints']['create']>>;
      try {
        if (type && !isEventType(type)) throw new Error('Choose an event type from the list');
        created = await deps.endpoints.create(actor.platformId, {
          url: (form.url ?? '').trim(),
          event_types: type ? [type] : null,
          description: form.description?.trim() || null,
        });
      } catch (error) {
        return endpointsPage(request, reply, { error: refusalOf(error) });
      }
      await deps.audit.recordConsole(null, {
        actor,
        action: 'webhook_endpoint.create',
        subjectType: 'webhook_endpoint',
        subjectId: created.endpoint.id,
        details: { url: created.endpoint.url },
      });
      return endpointsPage(request, reply, { secret: { url: created.endpoint.url, secret: created.secret } });
    });

    for (const [verb, status] of [
      ['disable', 'disabled'],
      ['enable', 'enabled'],
    ] as const) {
      app.post<{ Params: { id: string } }>(`/console/webhooks/:id/${verb}`, developer, async (request, reply) => {
        const { actor } = consoleOf(request);
        await deps.endpoints.update(
          { platformId: actor.platformId },
          request.params.id,
          { status },
          {
            disabledReason: `disabled in the console by ${actor.email}`,
            inTransaction: (trx, before) =>
              deps.audit.recordConsole(trx, {
                actor,
                action: `webhook_endpoint.${verb}`,
                subjectType: 'webhook_endpoint',
                subjectId: before.id,
              }),
          },
        );
        return reply.redirect(`/console/webhooks?notice=endpoint-${status}`, 303);
      });
    }

    // One `webhook_endpoint.test` event through the normal delivery path (404 another platform's, 409 a disabled one).
    app.post<{ Params: { id: string } }>('/console/webhooks/:id/test', developer, async (request, reply) => {
      const { actor } = consoleOf(request);
      const delivery = await deps.testEvents.sendTest(actor.platformId, request.params.id);
      await deps.audit.recordConsole(null, {
        actor,
        action: 'webhook_endpoint.test',
        subjectType: 'webhook_endpoint',
        subjectId: delivery.endpoint_id,
        details: { delivery_id: delivery.id, event_id: delivery.event_id },
      });
      return reply.redirect('/console/webhooks?notice=test-sent', 303);
    });

    app.post<{ Params: { id: string } }>('/console/webhooks/:id/delete', developer, async (request, reply) => {
      const { actor } = consoleOf(request);
      await deps.endpoints.remove({ platformId: actor.platformId }, request.params.id, (trx, row) =>
        deps.audit.recordConsole(trx, {
          actor,
          action: 'webhook_endpoint.delete',
          subjectType: 'webhook_endpoint',
          subjectId: row.id,
          details: { url: row.url },
        }),
      );
      return reply.redirect('/console/webhooks?notice=endpoint-deleted', 303);
    });

    app.get<{ Querystring: { type?: string; legal_entity_id?: string; after?: string } }>(
      '/console/events',
      viewer,
      async (request, reply) => {
        const { type = '', legal_entity_id: entity = '', after = '' } = request.query;
        const chosen = isEventType(type) ? type : undefined;
        let result: Awaited<ReturnType<EventLogReader['list']>> = { events: [], hasMore: false };
        let problem: string | null = null;
        try {
          result = await deps.events.list(consoleOf(request).actor.platformId, {
            ...(chosen && { types: [chosen] }),
            ...(entity.trim() && { legalEntityId: entity.trim().slice(0, 64) }),
            ...(after && { startingAfter: after.slice(0, 64) }),
            limit: EVENTS_PAGE,
          });
        } catch (error) {
          problem = refusalOf(error);
        }
        const next = new URLSearchParams({
          ...(chosen && { type: chosen }),
          ...(entity && { legal_entity_id: entity }),
          after: result.events.at(-1)?.id ?? '',
        });
        return deps.page(request, reply, {
          title: 'Events',
          current: '/console/events',
          body: () => html`<h1>Events</h1>
<form class="filters" method="get" action="/console/events">
${selectField({ name: 'type', label: 'Type', value: chosen ?? '', options: EVENT_TYPES.map((t) => [t, t] as const) })}
${textField({ name: 'legal_entity_id', label: 'Legal entity id', value: entity })}
<button type="submit">Filter</button></form>
${problem ? html`<p class="error">${problem}</p>` : ''}
<ul class="rows">${result.events.map(
            (e) =>
              html`<li><strong>${e.type}</strong> <span class="muted">${e.created_at}</span><br><span class="muted">${e.id}${e.legal_entity_id ? ` · ${e.legal_entity_id}` : ''}</span></li>`,
          )}</ul>
${result.events.length === 0 ? html`<p class="muted">No events${chosen || entity ? ' match these filters' : ' yet'}.</p>` : ''}
${result.hasMore ? html`<p><a href="/console/events?${next.toString()}">Next page</a></p>` : ''}`,
        });
      },
    );
  };
}
