import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Catalog } from '../../catalog/catalog.js';
import { BoundedString, StringEnum } from '../../http/schemas.js';
import { HttpError, InvalidInputError, InvalidInputsError } from '../../lib/errors.js';
import { renderAutomationPage, type AutomationPageData, type DetailForm } from '../../pages/operator-automation-page.js';
import { queueQuery, renderQueue, type QueueFilters } from '../../pages/operator-queue-page.js';
import { sendPage } from '../../http/pages.js';
import { AUTOMATION_STATUSES } from '../automations/contract.js';
import type { PlanningExplainer } from '../planning/contract.js';
import {
  backOfficeErrorPage,
  backOfficeOf,
  formFieldOf,
  MultipartForm,
  parseMultipart,
  requireOperatorSession,
  type BackOfficeHttp,
} from './back-office.http.js';
import { filterChoices, isOpen, requirementSheet, whyItApplies, type OperatorAutomations } from './back-office.views.js';
import { checkOutcomeForm, outcomeFormErrors } from './outcome.input.js';
import type { OperatorsService } from './operators.service.js';

const PAGE_SIZE = 25;
const MAX_MESSAGE = 2000;
/** The notices a redirect may name (never text from the query itself). */
const NOTICES = {
  claimed: 'The automation is assigned to you.',
  assigned: 'The assignment was changed.',
  completed: 'The automation is complete: its outputs are recorded and the task is done.',
  'sent-back': 'Sent back to the business owner; it waits for their answer.',
  canceled: 'The automation is canceled.',
} as const;

const QueueQuery = Type.Object({
  region: Type.Optional(BoundedString(2)),
  agency: Type.Optional(BoundedString(100)),
  status: Type.Optional(Type.Union([StringEnum(AUTOMATION_STATUSES), Type.Literal('')])),
  platform: Type.Optional(BoundedString(64)),
  assigned: Type.Optional(Type.Union([StringEnum(['me', 'unassigned', 'anyone'] as const), Type.Literal('')])),
  cursor: Type.Optional(BoundedString(500)),
  notice: Type.Optional(BoundedString(40)),
});
const AutomationParams = Type.Object({ id: BoundedString(64) });
const DetailQuery = Type.Object({ notice: Type.Optional(BoundedString(40)) });

export interface BackOfficeWorkDeps extends BackOfficeHttp {
  automations: OperatorAutomations;
  operators: Pick<OperatorsService, 'listKeys' | 'listPlatforms'>;
  catalog: Pick<Catalog, 'regions' | 'requirement'>;
  planning: PlanningExplainer;
  /** The largest confirmation PDF accepted (MAIL_MAX_BYTES: it becomes a mail item). */
  maxUploadBytes: number;
  now: () => Date;
}

/** The work queue (/operator) and the page of one automation with its actions (claim, reveal, complete, send back, cancel). */
export function backOfficeWorkRoutes(deps: BackOfficeWorkDeps) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    app.setErrorHandler(backOfficeErrorPage);
    app.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: deps.maxUploadBytes + 64 * 1024 },
      async (request: FastifyRequest, body: Buffer) => {
        const form = await parseMultipart(request.headers['content-type'] ?? '', body);
        if (!form) throw new HttpError(400, 'The form could not be read');
        return form;
      },
    );
    const session = requireOperatorSession(deps);

    r.get('/operator', { preHandler: session, schema: { hide: true, querystring: QueueQuery } }, async (request, reply) => {
      const { operator, csrf } = backOfficeOf(request);
      const q = request.query;
      const filters: QueueFilters = {
        region: q.region?.toUpperCase() || undefined,
        agency: q.agency || undefined,
        status: q.status || undefined,
        platform: q.platform || undefined,
        assigned: q.assigned || undefined,
      };
      const page = await deps.automations.queue({
        limit: PAGE_SIZE,
        ...(filters.region && { region: filters.region }),
        ...(filters.agency && { agencyId: filters.agency }),
        ...(filters.status && { status: filters.status as (typeof AUTOMATION_STATUSES)[number] }),
        ...(filters.platform && { platformId: filters.platform }),
        ...(filters.assigned === 'me' && { assignedTo: operator.keyId }),
        ...(filters.assigned === 'unassigned' && { assignedTo: 'unassigned' }),
        ...(q.cursor && { cursor: q.cursor }),
      });
      return sendPage(
        reply,
        renderQueue({
          operator,
          csrf,
          items: page.items,
          filters,
          nextCursor: page.nextCursor,
          here: queueQuery(filters, q.cursor),
          choices: filterChoices(deps.catalog, filters.region, await deps.operators.listPlatforms()),
          notice: noticeOf(q.notice),
          today: deps.now().toISOString().slice(0, 10),
        }),
      );
    });

    /** The automation's page, as it is now; `extra` adds what a POST answers with (revealed input, errors). */
    async function detail(
      request: FastifyRequest,
      reply: FastifyReply,
      id: string,
      extra: Partial<AutomationPageData> & { status?: number } = {},
    ) {
      const { operator, csrf } = backOfficeOf(request);
      const item = await deps.automations.get(id);
      const [why, keys] = await Promise.all([whyItApplies(deps.planning, item), deps.operators.listKeys()]);
      const { status, ...rest } = extra;
      return sendPage(
        reply,
        renderAutomationPage({
          operator,
          csrf,
          item,
          sheet: requirementSheet(deps.catalog, item.requirementId),
          why,
          revealed: null,
          open: isOpen(item),
          operators: keys.filter((k) => !k.revoked_at).map((k) => [k.id, k.name] as const),
          ...rest,
        }),
        { status: status ?? 200 },
      );
    }

    const done = (reply: FastifyReply, id: string, notice: keyof typeof NOTICES) =>
      reply.redirect(`/operator/automations/${encodeURIComponent(id)}?notice=${notice}`, 303);
    /** A 409 (the automation moved on meanwhile) is shown on its page, which then tells its new state. */
    const conflictPage = (request: FastifyRequest, reply: FastifyReply, id: string, error: unknown) => {
      if (!(error instanceof HttpError && error.status === 409)) throw error;
      return detail(request, reply, id, { problem: error.detail, status: 409 });
    };
    const pageOptions = { preHandler: session, schema: { hide: true, params: AutomationParams } };

    r.get(
      '/operator/automations/:id',
      { preHandler: session, schema: { hide: true, params: AutomationParams, querystring: DetailQuery } },
      async (request, reply) => detail(request, reply, request.params.id, { notice: noticeOf(request.query.notice) }),
    );

    r.post('/operator/automations/:id/claim', pageOptions, async (request, reply) => {
      const { operator } = backOfficeOf(request);
      const choice = formFieldOf(request, 'assignee');
      let assignee: { keyId: string; name: string } | null | undefined;
      if (choice === 'unassigned') assignee = null;
      else if (choice !== undefined && choice !== operator.keyId) {
        const key = (await deps.operators.listKeys()).find((k) => k.id === choice && !k.revoked_at);
        if (!key)
          return detail(request, reply, request.params.id, {
            errors: { form: 'assign', fields: { assignee: 'Choose an operator of the list' }, values: {} },
            status: 422,
          });
        assignee = { keyId: key.id, name: key.name };
      }
      try {
        await deps.automations.claim(request.params.id, operator, assignee);
      } catch (error) {
        return conflictPage(request, reply, request.params.id, error);
      }
      const back = formFieldOf(request, 'return_to');
      // Only back to the queue (a path of ours), never to an address a form could name.
      if (back && /^\/operator(\?[^\s#]*)?$/.test(back))
        return reply.redirect(`${back}${back.includes('?') ? '&' : '?'}notice=claimed`, 303);
      return done(reply, request.params.id, choice && choice !== operator.keyId ? 'assigned' : 'claimed');
    });

    r.post('/operator/automations/:id/reveal', pageOptions, async (request, reply) => {
      try {
        const revealed = await deps.automations.revealInput(request.params.id, backOfficeOf(request).operator);
        return await detail(request, reply, request.params.id, { revealed });
      } catch (error) {
        return conflictPage(request, reply, request.params.id, error);
      }
    });

    r.post('/operator/automations/:id/complete', { ...pageOptions, bodyLimit: deps.maxUploadBytes + 64 * 1024 }, async (request, reply) => {
      const item = await deps.automations.get(request.params.id);
      const sheet = requirementSheet(deps.catalog, item.requirementId);
      const form = request.body instanceof MultipartForm ? request.body : null;
      if (!sheet || !form) throw new HttpError(400, 'The outcome form could not be read');
      const values = Object.fromEntries(
        [...form.fields.entries()]
          .filter(([name, v]) => typeof v === 'string' && name !== '_csrf' && !name.includes('password'))
          .map(([n, v]) => [n, v as string]),
      );
      const checked = checkOutcomeForm(sheet, { text: (name) => form.text(name), document: await form.file('document') });
      if ('errors' in checked)
        return detail(request, reply, request.params.id, { errors: { form: 'outcome', fields: checked.errors, values }, status: 422 });
      try {
        await deps.automations.complete(item.id, backOfficeOf(request).operator, checked.outcome);
      } catch (error) {
        if (error instanceof InvalidInputError || error instanceof InvalidInputsError) {
          return detail(request, reply, request.params.id, {
            errors: { form: 'outcome', fields: outcomeFormErrors(sheet, checked.outcome, error), values },
            status: 422,
          });
        }
        return conflictPage(request, reply, request.params.id, error);
      }
      return done(reply, item.id, 'completed');
    });

    const textAction = (
      path: string,
      form: DetailForm,
      field: string,
      notice: keyof typeof NOTICES,
      act: (id: string, request: FastifyRequest, text: string) => Promise<unknown>,
    ) =>
      r.post(path, pageOptions, async (request, reply) => {
        const text = (formFieldOf(request, field) ?? '').trim();
        const error = !text
          ? 'Write a few words: the person reading it needs them'
          : text.length > MAX_MESSAGE
            ? `At most ${MAX_MESSAGE} characters`
            : null;
        if (error)
          return detail(request, reply, request.params.id, {
            errors: { form, fields: { [field]: error }, values: { [field]: text.slice(0, MAX_MESSAGE * 2) } },
            status: 422,
          });
        try {
          await act(request.params.id, request, text);
        } catch (thrown) {
          return conflictPage(request, reply, request.params.id, thrown);
        }
        return done(reply, request.params.id, notice);
      });
    textAction('/operator/automations/:id/request-response', 'send-back', 'message', 'sent-back', (id, request, text) =>
      deps.automations.requestCustomerResponse(id, backOfficeOf(request).operator, text),
    );
    textAction('/operator/automations/:id/cancel', 'cancel', 'reason', 'canceled', (id, request, text) =>
      deps.automations.cancel(id, backOfficeOf(request).operator, text),
    );
  };
}

const noticeOf = (code: string | undefined) => (code && code in NOTICES ? NOTICES[code as keyof typeof NOTICES] : null);
