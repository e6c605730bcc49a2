// What every page of the hosted handbook builder shares: the steps, the frame around each page's content,
// the employee rows (step 4 and the published page).
import { formatDay } from './dates.js';
import { html, layout, raw, type PageBrand, type Raw } from './html.js';

export const BUILDER_STEPS = [
  { key: 'states', title: 'Employees by state', path: '/hosted/handbook/states' },
  { key: 'questions', title: "Your policies' details", path: '/hosted/handbook/questions' },
  { key: 'policies', title: 'Policies', path: '/hosted/handbook/policies' },
  { key: 'employees', title: 'Employees', path: '/hosted/handbook/employees' },
  { key: 'publish', title: 'Review and publish', path: '/hosted/handbook/publish' },
] as const;
export type BuilderStep = (typeof BUILDER_STEPS)[number]['key'];

/** What every builder page shows around its content. */
export interface BuilderFrame {
  platformName: string;
  brand?: PageBrand | null;
  businessName: string;
  csrf: string;
  /** Steps already complete (a check mark in the step list). */
  done: ReadonlySet<BuilderStep>;
  notice?: string | null;
}

export const readableDate = (value: Date | string) => formatDay(value instanceof Date ? value : new Date(value));

function stepList(current: BuilderStep | null, done: ReadonlySet<BuilderStep>): Raw {
  return html`<nav aria-label="Handbook steps"><ol class="steps">${BUILDER_STEPS.map((s) => html`<li${s.key === current ? raw(' aria-current="step"') : ''} class="${s.key === current ? 'current' : done.has(s.key) ? 'done' : ''}"><a href="${s.path}">${s.title}</a></li>`)}</ol></nav>`;
}

export function builderPage(frame: BuilderFrame, title: string, current: BuilderStep | null, body: Raw): string {
  return layout({
    title,
    platformName: frame.platformName,
    brand: frame.brand,
    body: html`<p class="muted">${frame.businessName} · Employee handbook</p>
${stepList(current, frame.done)}
<h1>${title}</h1>
${frame.notice ? html`<div class="notice success" role="status"><p>${frame.notice}</p></div>` : ''}
${body}`,
  });
}

export const nextStep = (label: string) => html`<p class="actions"><button type="submit">${label}</button></p>`;

export interface EmployeeView {
  id: string;
  name: string;
  email: string | null;
  status: 'signed' | 'outdated' | 'pending' | 'missing_email';
  ackUrl: string | null;
}

export const STATUS_WORDS: Record<EmployeeView['status'], string> = {
  signed: 'Acknowledged the latest version',
  outdated: 'Acknowledged an earlier version only',
  pending: 'Not acknowledged yet',
  missing_email: 'Not acknowledged yet, no e-mail address',
};
