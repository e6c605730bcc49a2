import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { StringEnum } from '../../http/schemas.js';
import { renderSignupDonePage, renderSignupReview, renderSignupStep, renderSignupWelcome } from '../../pages/signup-pages.js';
import type { SignupService } from './signup.service.js';
import { callbackTarget, formOf, sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedContext, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { STEPS, type FormStep, type Step } from '../../pages/signup-options.js';
import {
  confirmedWith,
  firstIncompleteStep,
  formValues,
  nextStep,
  prefilledSteps,
  previousStep,
  resumeStep,
  startStep,
  validateStep,
} from './signup-wizard.js';

const StepParams = Type.Object({ step: StringEnum(STEPS) });

/** The hosted signup: an introduction, one step per page validated like the API, resumable, ending with a review. */
export function signupPageRoutes(deps: {
  sessions: Pick<HostedSessionsService, 'check' | 'endBrowserSession'>;
  signup: SignupService;
  publicOrigin: string;
  now?: () => Date;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const guard = { preHandler: requireHostedSession(deps, ['signup']), schema: { hide: true } } as const;

    const entityOf = async (id: string) => (await deps.signup.find(id))!;
    const done = (hosted: Pick<HostedContext, 'platformName' | 'brand'>, businessName: string) =>
      renderSignupDonePage({ platformName: hosted.platformName, brand: hosted.brand, businessName });
    const backOf = (step: Step) => `/hosted/signup/${previousStep(step)}`;
    const today = () => (deps.now ? deps.now() : new Date());

    r.get('/hosted/signup', guard, async (request, reply) => {
      const hosted = hostedOf(request);
      const entity = await entityOf(hosted.session.legal_entity_id);
      if (entity.status === 'active') return sendPage(reply, done(hosted, entity.business_name));
      return reply.redirect(`/hosted/signup/${resumeStep(entity)}`, 303);
    });

    // The introduction: who asks, what happens, what the platform already filled in. Start records that the owner began.
    r.get('/hosted/signup/welcome', guard, async (request, reply) => {
      const hosted = hostedOf(request);
      const entity = await entityOf(hosted.session.legal_entity_id);
      if (entity.status === 'active') return sendPage(reply, done(hosted, entity.business_name));
      return sendPage(
        reply,
        renderSignupWelcome({
          entity,
          prefilled: prefilledSteps(entity),
          csrf: hosted.csrf,
          platformName: hosted.platformName,
          brand: hosted.brand,
        }),
      );
    });

    r.post('/hosted/signup/welcome', guard, async (request, reply) => {
      const hosted = hostedOf(request);
      const entity = await entityOf(hosted.session.legal_entity_id);
      if (entity.status === 'active') return sendPage(reply, done(hosted, entity.business_name));
      const start = startStep(entity);
      await deps.signup.saveSignupStep(entity.id, {}, start, entity.signup_confirmed_steps);
      return reply.redirect(`/hosted/signup/${start}`, 303);
    });

    r.get('/hosted/signup/:step', { ...guard, schema: { hide: true, params: StepParams } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const entity = await entityOf(hosted.session.legal_entity_id);
      if (entity.status === 'active') return sendPage(reply, done(hosted, entity.business_name));
      const step = request.params.step as Step;
      const prefilled = prefilledSteps(entity);
      if (step === 'review') {
        const missing = firstIncompleteStep(entity, today());
        if (missing) return reply.redirect(`/hosted/signup/${missing}`, 303);
        return sendPage(
          reply,
          renderSignupReview({ entity, prefilled, csrf: hosted.csrf, platformName: hosted.platformName, brand: hosted.brand }),
          { formTarget: hosted.session.callback_url },
        );
      }
      return sendPage(
        reply,
        renderSignupStep({
          step,
          values: formValues(entity),
          errors: {},
          csrf: hosted.csrf,
          platformName: hosted.platformName,
          brand: hosted.brand,
          back: backOf(step),
          prefilled: step in prefilled,
        }),
      );
    });

    r.post('/hosted/signup/:step', { ...guard, schema: { hide: true, params: StepParams } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const step = request.params.step as Step;
      const entityId = hosted.session.legal_entity_id;
      if (step === 'review') {
        const entity = await entityOf(entityId);
        const missing = firstIncompleteStep(entity, today());
        if (entity.status === 'inactive' && missing) return reply.redirect(`/hosted/signup/${missing}`, 303);
        const completed = (await deps.signup.completeHostedSignup(entityId)) ?? entity;
        await deps.sessions.endBrowserSession(hosted.session);
        const callback = hosted.session.callback_url;
        if (callback) return reply.header('referrer-policy', 'no-referrer').redirect(callbackTarget(callback, entityId, 'complete'), 303);
        return sendPage(reply, done(hosted, completed.business_name));
      }
      const form = formOf(request);
      const result = validateStep(step, form, today());
      const entity = await entityOf(entityId);
      if (!result.ok) {
        return sendPage(
          reply,
          renderSignupStep({
            step,
            values: result.values,
            errors: result.errors,
            csrf: hosted.csrf,
            platformName: hosted.platformName,
            brand: hosted.brand,
            back: backOf(step),
            prefilled: step in prefilledSteps(entity),
          }),
          { status: 422 },
        );
      }
      if (entity.status === 'active') return sendPage(reply, done(hosted, entity.business_name));
      await deps.signup.saveSignupStep(entityId, result.profile, nextStep(step), confirmedWith(entity, step as FormStep));
      return reply.redirect(`/hosted/signup/${nextStep(step)}`, 303);
    });
  };
}
