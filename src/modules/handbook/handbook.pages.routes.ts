import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { FEDERAL, fillPolicyText, type HandbookCatalog } from '../../catalog/handbook.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { acknowledgementStatement, handbookArticle } from '../../pages/handbook-document.js';
import {
  BUILDER_STEPS,
  renderAcknowledgementPage,
  renderHandbookEmployees,
  renderHandbookPolicies,
  renderHandbookPublished,
  renderHandbookQuestions,
  renderHandbookReview,
  renderHandbookStart,
  renderHandbookStates,
  type BuilderFrame,
  type BuilderStep,
} from '../../pages/handbook-builder-pages.js';
import { formOf, isSameOrigin, sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedContext, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { regionName } from './handbook.fns.js';
import { HANDBOOK_ACK_PATH, HANDBOOK_FILE_PATH } from './handbook-links.js';
import { renderHandbookPdf } from './handbook-pdf.js';
import { unchangedMessage, type BuilderState, type HandbookService } from './handbook.service.js';

const EmployeeParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const TokenParams = Type.Object({ token: Type.String({ maxLength: 128 }) });
const FileParams = Type.Object({ entity: Type.String({ maxLength: 64 }), file: Type.String({ maxLength: 80 }) });

/** Which steps are complete, for the step list's check marks. */
function doneSteps(state: BuilderState): Set<BuilderStep> {
  const d = state.derivation;
  const done = new Set<BuilderStep>();
  if (d.employeeRegions.length && !d.missingCounts.length) done.add('states');
  if (d.employeeRegions.length && !d.unanswered.length) done.add('questions');
  // Policies are reviewed once the details are in and every optional one has been included or skipped.
  if (
    done.has('questions') &&
    d.applicable.length &&
    d.applicable.filter((a) => a.policy.adoption === 'optional').every((a) => state.draft.choices[a.policy.id])
  )
    done.add('policies');
  if (state.employees.length) done.add('employees');
  if (state.latest) done.add('publish');
  return done;
}

/** The first step that still needs the owner. */
function nextStepOf(state: BuilderState) {
  const d = state.derivation;
  const key: BuilderStep = !d.employeeRegions.length || d.missingCounts.length ? 'states' : d.unanswered.length ? 'questions' : 'policies';
  return BUILDER_STEPS.find((s) => s.key === key)!;
}

/** The hosted handbook builder (/hosted/handbook…, a `handbook` session), the PDF download and the employees' acknowledgement pages. */
export function handbookPageRoutes(deps: {
  handbook: HandbookService;
  catalog: HandbookCatalog;
  sessions: Pick<HostedSessionsService, 'check'>;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const guarded = { preHandler: requireHostedSession(deps, ['handbook']), schema: { hide: true } };
    const frameOf = (hosted: HostedContext, state: BuilderState, notice?: string | null): BuilderFrame => ({
      platformName: hosted.platformName,
      brand: hosted.brand,
      businessName: state.businessName || hosted.businessName,
      csrf: hosted.csrf,
      done: doneSteps(state),
      notice: notice ?? null,
    });
    const load = async (hosted: HostedContext) => deps.handbook.state(hosted.scope);
    // The notice names the employee (?name=, shown escaped) so the owner sees whom the change was about.
    const noticeOf = (query: unknown) => {
      const { saved, name } = query as { saved?: string; name?: string };
      const who = typeof name === 'string' && name.trim() ? name.trim().slice(0, 200) : 'Employee';
      return saved === 'added' ? `${who} added.` : saved === 'employee' ? `${who} saved.` : saved === 'removed' ? `${who} removed.` : null;
    };
    const savedUrl = (saved: string, name: string) => `/hosted/handbook/employees?saved=${saved}&name=${encodeURIComponent(name.trim())}`;

    app.get('/hosted/handbook', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const state = await load(hosted);
      const next = nextStepOf(state);
      return sendPage(
        reply,
        renderHandbookStart(frameOf(hosted, state), {
          blockers: state.derivation.blockers,
          adoptable: state.derivation.adoptable,
          next: { path: next.path, title: next.title },
          hasEmployeeStates: state.derivation.employeeRegions.length > 0,
          countsMissing: state.derivation.missingCounts.length > 0,
          latest: state.latest,
          stats: state.stats,
          callbackUrl: hosted.session.callback_url,
        }),
      );
    });

    // Step 1: employee counts.
    const statesPage = (
      reply: FastifyReply,
      hosted: HostedContext,
      state: BuilderState,
      values: Record<string, string>,
      errors: Record<string, string>,
    ) =>
      sendPage(
        reply,
        renderHandbookStates(frameOf(hosted, state), {
          states: state.derivation.employeeRegions.map((code) => ({
            code,
            name: regionName(code),
            count:
              values[`count_${code}`] ??
              (state.counts[code] === null || state.counts[code] === undefined ? '' : String(state.counts[code])),
          })),
          errors,
        }),
        { status: Object.keys(errors).length ? 422 : 200 },
      );

    app.get('/hosted/handbook/states', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      return statesPage(reply, hosted, await load(hosted), {}, {});
    });
    app.post('/hosted/handbook/states', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const errors = await deps.handbook.saveCounts(hosted.scope, form);
      if (Object.keys(errors).length) return statesPage(reply, hosted, await load(hosted), form, errors);
      return reply.redirect('/hosted/handbook/questions', 303);
    });

    // Step 2: questions.
    const questionsPage = (
      reply: FastifyReply,
      hosted: HostedContext,
      state: BuilderState,
      typed: Record<string, string> | null,
      errors: Record<string, string>,
      notice?: string | null,
    ) => {
      const values =
        typed ??
        Object.fromEntries(
          state.derivation.questions.map((q) => {
            const answer = state.draft.answers[q.id] ?? q.default;
            return [`q_${q.id}`, answer === undefined ? '' : String(answer)];
          }),
        );
      return sendPage(
        reply,
        renderHandbookQuestions(frameOf(hosted, state, notice), { questions: state.derivation.questions, values, errors }),
        { status: Object.keys(errors).length ? 422 : 200 },
      );
    };
    app.get('/hosted/handbook/questions', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const state = await load(hosted);
      const followUps =
        (request.query as { followups?: string }).followups === '1'
          ? state.derivation.questions.filter((q) => state.derivation.unanswered.includes(q.id)).map((q) => q.prompt)
          : [];
      const notice = followUps.length
        ? `Your answers added ${followUps.length === 1 ? 'a follow-up question' : `${followUps.length} follow-up questions`}: ${followUps.join(' ')} Answer ${followUps.length === 1 ? 'it' : 'them'} below, then save.`
        : null;
      return questionsPage(reply, hosted, state, null, {}, notice);
    });
    app.post('/hosted/handbook/questions', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const errors = await deps.handbook.saveAnswers(hosted.scope, form);
      if (Object.keys(errors).length) return questionsPage(reply, hosted, await load(hosted), form, errors);
      // An answer can bring in a policy with questions of its own (e.g. paid vacation → how many days): stay and say so.
      const state = await load(hosted);
      return reply.redirect(
        state.derivation.unanswered.length ? '/hosted/handbook/questions?followups=1' : '/hosted/handbook/policies',
        303,
      );
    });

    // Step 3: policies.
    const policiesPage = (
      reply: FastifyReply,
      hosted: HostedContext,
      state: BuilderState,
      typed: Record<string, string> | null,
      errors: Record<string, string>,
    ) => {
      const regions = [FEDERAL, ...state.derivation.employeeRegions];
      const choices = typed
        ? Object.fromEntries(
            Object.entries(typed)
              .filter(([k]) => k.startsWith('policy_'))
              .map(([k, v]) => [k.slice('policy_'.length), v]),
          )
        : state.draft.choices;
      const sections = regions
        .map((region) => ({
          heading: region === FEDERAL ? 'Policies for every employee' : `Employees in ${regionName(region)}`,
          policies: state.derivation.applicable
            .filter((a) => a.policy.region === region)
            .map(({ policy }) => ({
              id: policy.id,
              title: policy.title,
              summary: policy.summary,
              category: policy.category,
              adoption: policy.adoption,
              sources: policy.sources,
              text: fillPolicyText(policy.body, {
                company: state.businessName,
                regionName: regionName(region),
                answers: state.draft.answers,
                questions: deps.catalog.questions,
              }),
            })),
        }))
        .filter((s) => s.policies.length);
      return sendPage(reply, renderHandbookPolicies(frameOf(hosted, state), { sections, choices, errors }), {
        status: Object.keys(errors).length ? 422 : 200,
      });
    };
    app.get('/hosted/handbook/policies', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      return policiesPage(reply, hosted, await load(hosted), null, {});
    });
    app.post('/hosted/handbook/policies', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const errors = await deps.handbook.saveChoices(hosted.scope, form);
      if (Object.keys(errors).length) return policiesPage(reply, hosted, await load(hosted), form, errors);
      return reply.redirect('/hosted/handbook/employees', 303);
    });

    // Step 4: employees.
    const employeesPage = (
      reply: FastifyReply,
      hosted: HostedContext,
      state: BuilderState,
      forms: {
        add?: { values: Record<string, string>; errors: Record<string, string> };
        edit?: { id: string; values: Record<string, string>; errors: Record<string, string> };
      },
      notice?: string | null,
    ) => {
      const failed = Object.keys(forms.add?.errors ?? {}).length + Object.keys(forms.edit?.errors ?? {}).length > 0;
      return sendPage(
        reply,
        renderHandbookEmployees(frameOf(hosted, state, notice), {
          employees: state.employees,
          published: !!state.latest,
          add: forms.add ?? { values: {}, errors: {} },
          edit: forms.edit ?? null,
        }),
        { status: failed ? 422 : 200 },
      );
    };
    app.get('/hosted/handbook/employees', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      return employeesPage(reply, hosted, await load(hosted), {}, noticeOf(request.query));
    });
    app.post('/hosted/handbook/employees', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const values = { name: form.name ?? '', email: form.email ?? '' };
      const errors = await deps.handbook.addEmployee(hosted.scope, values);
      if (Object.keys(errors).length) return employeesPage(reply, hosted, await load(hosted), { add: { values, errors } });
      return reply.redirect(savedUrl('added', values.name), 303);
    });
    app.get<{ Params: { id: string } }>(
      '/hosted/handbook/employees/:id/edit',
      { ...guarded, schema: { hide: true, params: EmployeeParams } },
      async (request, reply) => {
        const hosted = hostedOf(request);
        const employee = await deps.handbook.employee(hosted.scope, request.params.id).catch(notFoundAsNull);
        if (!employee)
          return sendPage(
            reply,
            renderMessagePage({
              title: 'Employee not found',
              body: 'They may have been removed. Go back to the employee list.',
              platformName: hosted.platformName,
              brand: hosted.brand,
            }),
            { status: 404 },
          );
        return employeesPage(reply, hosted, await load(hosted), {
          edit: { id: employee.id, values: { name: employee.name, email: employee.email ?? '' }, errors: {} },
        });
      },
    );
    app.post<{ Params: { id: string } }>(
      '/hosted/handbook/employees/:id',
      { ...guarded, schema: { hide: true, params: EmployeeParams } },
      async (request, reply) => {
        const hosted = hostedOf(request);
        const form = formOf(request);
        const values = { name: form.name ?? '', email: form.email ?? '' };
        const errors = await deps.handbook.updateEmployee(hosted.scope, request.params.id, values).catch(notFoundAsNull);
        if (errors === null)
          return sendPage(
            reply,
            renderMessagePage({
              title: 'Employee not found',
              body: 'They may have been removed. Go back to the employee list.',
              platformName: hosted.platformName,
              brand: hosted.brand,
            }),
            { status: 404 },
          );
        if (Object.keys(errors).length)
          return employeesPage(reply, hosted, await load(hosted), { edit: { id: request.params.id, values, errors } });
        return reply.redirect(savedUrl('employee', values.name), 303);
      },
    );
    app.post<{ Params: { id: string } }>(
      '/hosted/handbook/employees/:id/remove',
      { ...guarded, schema: { hide: true, params: EmployeeParams } },
      async (request, reply) => {
        const hosted = hostedOf(request);
        const employee = await deps.handbook.employee(hosted.scope, request.params.id).catch(notFoundAsNull);
        const removed = employee && (await deps.handbook.removeEmployee(hosted.scope, employee.id).then(() => true, notFoundAsNull));
        return reply.redirect(employee && removed ? savedUrl('removed', employee.name) : '/hosted/handbook/employees', 303);
      },
    );

    // Step 5: review and publish.
    const reviewPage = (reply: FastifyReply, hosted: HostedContext, state: BuilderState, error: string | null) => {
      const included = state.derivation.applicable.filter((a) => a.included);
      const sections = [FEDERAL, ...state.derivation.employeeRegions]
        .map((region) => ({
          heading: region === FEDERAL ? 'Policies for every employee' : `Employees in ${regionName(region)}`,
          titles: included.filter((a) => a.policy.region === region).map((a) => a.policy.title),
        }))
        .filter((s) => s.titles.length);
      return sendPage(
        reply,
        renderHandbookReview(frameOf(hosted, state), {
          blockers: state.derivation.blockers,
          sections,
          employees: state.employees.length,
          nextVersion: (state.latest?.number ?? 0) + 1,
          error,
          unchanged: state.unchangedSince === null ? null : unchangedMessage(state.unchangedSince),
        }),
        { status: error ? 409 : 200 },
      );
    };
    app.get('/hosted/handbook/publish', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      return reviewPage(reply, hosted, await load(hosted), null);
    });
    app.post('/hosted/handbook/publish', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      try {
        await deps.handbook.publish(hosted.scope);
      } catch (error) {
        if (error instanceof ConflictError) return reviewPage(reply, hosted, await load(hosted), (error as Error).message);
        throw error;
      }
      return reply.redirect('/hosted/handbook/published', 303);
    });

    app.get('/hosted/handbook/published', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const state = await load(hosted);
      if (!state.latest) return reply.redirect('/hosted/handbook/publish', 303);
      return sendPage(
        reply,
        renderHandbookPublished(frameOf(hosted, state), {
          article: handbookArticle(state.latest.document),
          version: state.latest.number,
          pdfUrl: await deps.handbook.pdfUrl(hosted.scope, state.latest.id),
          employees: state.employees,
          callbackUrl: hosted.session.callback_url,
        }),
        { formTarget: null },
      );
    });

    // The PDF behind its signed link: no session needed (a browser or a mail client opens it), the signature is the credential.
    app.get<{ Params: { entity: string; file: string }; Querystring: { expires?: string; signature?: string } }>(
      `${HANDBOOK_FILE_PATH}:entity/:file`,
      { schema: { hide: true, params: FileParams } },
      async (request, reply) => {
        const { entity, file } = request.params;
        const versionId = file.endsWith('.pdf') ? file.slice(0, -4) : null;
        const result = versionId
          ? await deps.handbook.pdf(entity, versionId, request.query.expires, request.query.signature)
          : { state: 'forged' as const };
        if (result.state !== 'ok') {
          const expired = result.state === 'expired';
          return sendPage(
            reply,
            renderMessagePage(
              expired
                ? {
                    title: 'This download link has expired',
                    body: 'Download links work for a limited time. Open the handbook builder again for a fresh one.',
                  }
                : {
                    title: 'This download link is not valid',
                    body: 'Check that the whole link was copied, or open the handbook builder again for a fresh one.',
                  },
            ),
            { status: expired ? 410 : 404 },
          );
        }
        const pdf = await renderHandbookPdf(result.document);
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="employee-handbook-v${result.document.version}.pdf"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .send(pdf);
      },
    );

    // The employee's page: opening it changes nothing (link scanners open links too); only the form acknowledges.
    const ackPage = async (reply: FastifyReply, token: string, typed: { value: string; error: string | null } | null, status = 200) => {
      const view = await deps.handbook.ackView(token);
      if (view.state !== 'ok') {
        return view.state === 'removed'
          ? sendPage(
              reply,
              renderMessagePage({
                title: 'This link no longer works',
                body: 'Your employer removed it. Ask them if you think this is a mistake.',
              }),
              { status: 410 },
            )
          : sendPage(
              reply,
              renderMessagePage({
                title: 'This link is not valid',
                body: 'Check that the whole link was copied, or ask your employer for your personal link.',
              }),
              { status: 404 },
            );
      }
      return sendPage(
        reply,
        renderAcknowledgementPage({
          platformName: view.document.businessName,
          businessName: view.document.businessName,
          employeeName: view.employeeName,
          article: handbookArticle(view.document),
          statement: acknowledgementStatement(view.document),
          // The fragment lands a refused form's reload on the form and its error summary, not the top of a long page.
          action: `${HANDBOOK_ACK_PATH}${encodeURIComponent(token)}#acknowledge`,
          state: view.acknowledgedAt ? 'acknowledged' : view.superseded ? 'superseded' : 'open',
          acknowledgedAt: view.acknowledgedAt,
          typedName: view.typedName,
          value: typed?.value ?? '',
          error: typed?.error ?? null,
        }),
        { status },
      );
    };
    app.get<{ Params: { token: string } }>(
      `${HANDBOOK_ACK_PATH}:token`,
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => ackPage(reply, request.params.token, null),
    );
    app.post<{ Params: { token: string } }>(
      `${HANDBOOK_ACK_PATH}:token`,
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        if (!isSameOrigin(request, deps.publicOrigin))
          return sendPage(reply, renderMessagePage({ title: 'This form has expired', body: 'Reload the page and try again.' }), {
            status: 403,
          });
        const typedName = formOf(request).typed_name ?? '';
        const result = await deps.handbook.acknowledge(request.params.token, typedName);
        if (result.state === 'invalid') return ackPage(reply, request.params.token, { value: typedName, error: result.error }, 422);
        if (result.state === 'superseded') return ackPage(reply, request.params.token, null, 409);
        if (result.state === 'acknowledged')
          return reply
            .header('referrer-policy', 'no-referrer')
            .redirect(`${HANDBOOK_ACK_PATH}${encodeURIComponent(request.params.token)}`, 303);
        return ackPage(reply, request.params.token, null);
      },
    );
  };
}

const notFoundAsNull = (error: unknown): null => {
  if (error instanceof NotFoundError) return null;
  throw error;
};
