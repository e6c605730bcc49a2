import type { FastifyInstance } from 'fastify';
import { textField } from '../../pages/components.js';
import { html } from '../../pages/html.js';
import { NotFoundError } from '../../lib/errors.js';
import type { RequestLogQuery, RequestLogsService, RequestLogView } from '../request-logs/contract.js';
import { consoleErrorPage, consoleOf, requireConsole, type ConsoleHttp } from './console.http.js';
import { refusalOf, type PageRenderer } from './console.pages.js';

export interface ConsoleRequestLogsDeps extends ConsoleHttp {
  page: PageRenderer;
  requestLogs: RequestLogsService;
}

const LOGS_PAGE = 50;
type Filters = { status?: string; path?: string; legal_entity_id?: string; request_id?: string; after?: string };

/** `404` is one code, `4xx` (or `4`) a class; anything else is ignored. */
function statusFilter(raw: string): RequestLogQuery['status'] {
  const code = /^([1-5]\d\d)$/.exec(raw);
  if (code) return { code: Number(code[1]) };
  const cls = /^([1-5])(xx)?$/i.exec(raw);
  return cls ? { class: Number(cls[1]) } : undefined;
}

const summary = (l: RequestLogView) =>
  html`<strong>${l.method} ${l.path}</strong> <span class="badge">${String(l.status)}</span> <span class="muted">${l.created_at}</span>`;

/** The platform's API request logs (every role), newest first, through the request logs' service only. */
export function consoleRequestLogRoutes(deps: ConsoleRequestLogsDeps) {
  return async (app: FastifyInstance) => {
    app.setErrorHandler(consoleErrorPage);
    const viewer = { schema: { hide: true }, preHandler: requireConsole(deps) };

    app.get<{ Querystring: Filters }>('/console/request-logs', viewer, async (request, reply) => {
      const q = Object.fromEntries(
        Object.entries(request.query).map(([k, v]) => [
          k,
          String(v ?? '')
            .trim()
            .slice(0, 200),
        ]),
      ) as Filters;
      const status = statusFilter(q.status ?? '');
      let result: Awaited<ReturnType<RequestLogsService['list']>> = { logs: [], hasMore: false };
      let problem: string | null = null;
      try {
        result = await deps.requestLogs.list(consoleOf(request).actor.platformId, {
          ...(status && { status }),
          ...(q.path && { path: q.path }),
          ...(q.legal_entity_id && { legalEntityId: q.legal_entity_id }),
          ...(q.request_id && { requestId: q.request_id }),
          ...(q.after && { startingAfter: q.after }),
          limit: LOGS_PAGE,
        });
      } catch (error) {
        problem = refusalOf(error);
      }
      const { after: _after, ...kept } = q;
      const next = new URLSearchParams({
        ...Object.fromEntries(Object.entries(kept).filter(([, v]) => v)),
        after: result.logs.at(-1)?.id ?? '',
      });
      const filtered = Object.values(kept).some(Boolean);
      return deps.page(request, reply, {
        title: 'Request logs',
        current: '/console/request-logs',
        body: () => html`<h1>Request logs</h1>
<form class="filters" method="get" action="/console/request-logs">
${textField({ name: 'status', label: 'Status', hint: '404, or 4xx for a class', value: q.status ?? '' })}
${textField({ name: 'path', label: 'Path', hint: 'The path or its route, exactly', value: q.path ?? '' })}
${textField({ name: 'legal_entity_id', label: 'Legal entity id', value: q.legal_entity_id ?? '' })}
${textField({ name: 'request_id', label: 'Request id', value: q.request_id ?? '' })}
<button type="submit">Filter</button></form>
${problem ? html`<p class="error">${problem}</p>` : ''}
<ul class="rows">${result.logs.map(
          (l) =>
            html`<li>${summary(l)}<br><a href="/console/request-logs/${l.id}">${l.id}</a> <span class="muted">${l.request_id}${l.legal_entity_id ? ` · ${l.legal_entity_id}` : ''}</span></li>`,
        )}</ul>
${result.logs.length === 0 ? html`<p class="muted">No requests${filtered ? ' match these filters' : ' yet'}.</p>` : ''}
${result.hasMore ? html`<p><a href="/console/request-logs?${next.toString()}">Next page</a></p>` : ''}`,
      });
    });

    app.get<{ Params: { id: string } }>('/console/request-logs/:id', viewer, async (request, reply) => {
      const log = await deps.requestLogs.get(consoleOf(request).actor.platformId, request.params.id.slice(0, 64));
      if (!log) throw new NotFoundError('Request log not found');
      return deps.page(request, reply, {
        title: `Request ${log.id}`,
        current: '/console/request-logs',
        body: () => html`<h1>Request ${log.id}</h1>
<p>${summary(log)}</p>
<dl><dt>Route</dt><dd>${log.route ?? '—'}</dd><dt>Duration</dt><dd>${String(log.duration_ms)} ms</dd>
<dt>Request id</dt><dd>${log.request_id}</dd><dt>Idempotency key</dt><dd>${log.idempotency_key ?? '—'}</dd>
<dt>Legal entity</dt><dd>${log.legal_entity_id ?? '—'}</dd><dt>API key</dt><dd>${log.api_key_id ?? '—'}</dd></dl>
${log.error === null ? html`<p class="muted">No error body (a success).</p>` : html`<h2>Error body (redacted)</h2><pre>${JSON.stringify(log.error, null, 2)}</pre>`}
<p><a href="/console/request-logs">All request logs</a></p>`,
      });
    });
  };
}
