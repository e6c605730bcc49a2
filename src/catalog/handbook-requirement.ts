import type { Agency, RequirementDefinition } from './catalog.schema.js';

/**
 * The one requirement that is not a state's own rule but the employer's, in every state where it has employees:
 * a published employee handbook covering that state (docs/handbook.md, "The handbook task"). Planning plans it
 * like a state requirement (one task per state with employees); the handbook module marks it done when a
 * published version covers the state. Kept in code rather than in 51 region files: it is the same everywhere.
 */
export const HANDBOOK_AGENCY: Agency = {
  id: 'us-dol',
  name: 'U.S. Department of Labor',
  website: 'https://www.dol.gov',
  administers: ['federal employment laws (wages, hours, leave, workplace notices)'],
};

export const HANDBOOK_REQUIREMENT: RequirementDefinition = {
  id: 'employee-handbook',
  family: 'other',
  title: 'Publish an employee handbook',
  summary: 'Give employees in this state a handbook with the written policies federal and state law require, and collect their acknowledgements.',
  description:
    'Several federal and state laws require employers to give employees written policies or notices (for example on paid sick leave, ' +
    'harassment prevention, final pay and leave rights). Build the handbook with the hosted handbook builder: it asks what the policies ' +
    'need, lets you adopt optional ones, and publishes a version that covers every state where you have employees. Each employee then ' +
    'acknowledges it through a personal link. Publishing a version that covers this state completes this task.',
  category: 'hr',
  tags: ['handbook', 'employee-requirement'],
  priority: 'medium',
  agency: HANDBOOK_AGENCY.id,
  resources: [{ title: 'U.S. Department of Labor — Workplace posters and notices', url: 'https://www.dol.gov/general/topics/posters' }],
  fee: { type: 'fixed', amount: '0.00' },
  applies_when: { has_employees: true },
  schedule: { every: 'once', due: { rule: 'none', note: 'Before or soon after hiring in the state; publish a new version when a state is added.' } },
  resolutions: {
    manual: [
      { title: 'Open the handbook builder', description: 'Your platform opens it for you (its handbook page), or asks Statehouse for a builder link.' },
      { title: 'Answer, choose and publish', description: 'Answer the questions, include or skip the optional policies, list your employees, then publish.' },
      { title: 'Send the acknowledgement links', description: 'Each employee gets a personal link to read and acknowledge the published version.' },
    ],
  },
  sources: ['https://www.dol.gov/general/topics/posters'],
  confidence: 'confirmed',
};
