import type { FastifyInstance, FastifyReply } from 'fastify';
import { FEDERAL, fillPolicyText, type HandbookCatalog } from '../../catalog/handbook.js';
import { renderHandbookQuestions, renderHandbookStart, renderHandbookStates } from '../../pages/handbook-builder-pages.js';
import { renderHandbookPolicies } from '../../pages/handbook-policies-page.js';
import { formOf, sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedContext } from '../hosted-sessions/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import { regionName } from './handbook.fns.js';
import type { HandbookDraftsService } from './handbook-drafts.service.js';
import {
  answerField,
  answersFromForm,
  choiceField,
  choicesFromForm,
  countField,
  countsFromForm,
  fieldErrors,
  typedChoices,
  type FormErrors,
} from './handbook-forms.js';
import type { HandbookOverviewService } from './handbook-overview.service.js';
import { frameOf, nextStepOf, statusFor } from './handbook-page-frame.js';
import type { BuilderState } from './handbook.types.js';

/** The hosted handbook builder's start and its draft steps: employee counts, questions, policies (a `handbook` session). */
export function handbookBuilderPageRoutes(deps: {
  overview: Pick<HandbookOverviewService, 'state'>;
  drafts: HandbookDraftsService;
  catalog: HandbookCatalog;
  sessions: Pick<HostedSessionsService, 'check'>;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const guarded = { preHandler: requireHostedSession(deps, ['handbook']), schema: { hide: true } };
    const load = async (hosted: HostedContext) => deps.overview.state(hosted.scope);

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
      errors: FormErrors,
    ) =>
      sendPage(
        reply,
        renderHandbookStates(frameOf(hosted, state), {
          states: state.derivation.employeeRegions.map((code) => ({
            code,
            name: regionName(code),
            count:
              values[countField(code)] ??
              (state.counts[code] === null || state.counts[code] === undefined ? '' : String(state.counts[code])),
          })),
          errors,
        }),
        { status: statusFor(errors) },
      );

    app.get('/hosted/handbook/states', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      return statesPage(reply, hosted, await load(hosted), {}, {});
    });
    app.post('/hosted/handbook/states', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const state = await load(hosted);
      const { counts, errors } = countsFromForm(form, state.derivation.employeeRegions);
      const refused = Object.keys(errors).length ? errors : fieldErrors(await deps.drafts.saveCounts(hosted.scope, counts), countField);
      if (Object.keys(refused).length) return statesPage(reply, hosted, state, form, refused);
      return reply.redirect('/hosted/handbook/questions', 303);
    });

    // Step 2: questions.
    const questionsPage = (
      reply: FastifyReply,
      hosted: HostedContext,
      state: BuilderState,
      typed: Record<string, string> | null,
      errors: FormErrors,
      notice?: string | null,
    ) => {
      const values =
        typed ??
        Object.fromEntries(
          state.derivation.questions.map((q) => {
            const answer = state.draft.answers[q.id] ?? q.default;
            return [answerField(q.id), answer === undefined ? '' : String(answer)];
          }),
        );
      return sendPage(
        reply,
        renderHandbookQuestions(frameOf(hosted, state, notice), { questions: state.derivation.questions, values, errors }),
        { status: statusFor(errors) },
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
      const state = await load(hosted);
      const { answers, errors } = answersFromForm(form, state.derivation.questions);
      const refused = Object.keys(errors).length ? errors : fieldErrors(await deps.drafts.saveAnswers(hosted.scope, answers), answerField);
      if (Object.keys(refused).length) return questionsPage(reply, hosted, state, form, refused);
      // An answer can bring in a policy with questions of its own (e.g. paid vacation → how many days): stay and say so.
      const saved = await load(hosted);
      return reply.redirect(
        saved.derivation.unanswered.length ? '/hosted/handbook/questions?followups=1' : '/hosted/handbook/policies',
        303,
      );
    });

    // Step 3: policies.
    const policiesPage = (
      reply: FastifyReply,
      hosted: HostedContext,
      state: BuilderState,
      typed: Record<string, string> | null,
      errors: FormErrors,
    ) => {
      const regions = [FEDERAL, ...state.derivation.employeeRegions];
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
      const choices = typed ? typedChoices(typed) : state.draft.choices;
      return sendPage(reply, renderHandbookPolicies(frameOf(hosted, state), { sections, choices, errors }), { status: statusFor(errors) });
    };
    app.get('/hosted/handbook/policies', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      return policiesPage(reply, hosted, await load(hosted), null, {});
    });
    app.post('/hosted/handbook/policies', guarded, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const errors = fieldErrors(await deps.drafts.saveChoices(hosted.scope, choicesFromForm(form)), choiceField);
      if (Object.keys(errors).length) return policiesPage(reply, hosted, await load(hosted), form, errors);
      return reply.redirect('/hosted/handbook/employees', 303);
    });
  };
}
