// What the builder's page routes share: the frame of each page (the steps done) and the first step left.
import { NotFoundError } from '../../lib/errors.js';
import { BUILDER_STEPS, type BuilderFrame, type BuilderStep } from '../../pages/handbook-builder-frame.js';
import type { HostedContext } from '../hosted-sessions/contract.js';
import type { BuilderState } from './handbook.types.js';

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
export function nextStepOf(state: BuilderState) {
  const d = state.derivation;
  const key: BuilderStep = !d.employeeRegions.length || d.missingCounts.length ? 'states' : d.unanswered.length ? 'questions' : 'policies';
  return BUILDER_STEPS.find((s) => s.key === key)!;
}

export const frameOf = (hosted: HostedContext, state: BuilderState, notice?: string | null): BuilderFrame => ({
  platformName: hosted.platformName,
  brand: hosted.brand,
  businessName: state.businessName || hosted.businessName,
  csrf: hosted.csrf,
  done: doneSteps(state),
  notice: notice ?? null,
});

/** Whether a form refused something (422) or not. */
export const statusFor = (errors: Record<string, string>) => (Object.keys(errors).length ? 422 : 200);

export const notFoundAsNull = (error: unknown): null => {
  if (error instanceof NotFoundError) return null;
  throw error;
};
