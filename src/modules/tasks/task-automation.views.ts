// How a task record says that it can be automated: the unversioned `automate` resolution (its form_spec and
// URLs), the v2 `hosted` resolution, which resolution is the default, and the v2 automation status and logs.
import type { AutomationField } from '../../catalog/catalog.schema.js';
import type { TaskRow } from '../../db/schema.js';
import type { TaskAutomation } from './task-view.js';

/** Where the records' URLs point: Statehouse's public base URL (PUBLIC_BASE_URL), without a trailing slash. */
export interface RecordLinks {
  publicBaseUrl: string;
}

type FormSpecProperty = {
  type: 'string' | 'number' | 'boolean';
  format?: 'date' | 'email' | 'phone' | 'address' | 'ssn-last4' | 'ein';
  title: string;
  description?: string;
  pattern?: string;
  maxLength?: number;
  writeOnly?: boolean;
};

/** Free text is limited as the hosted form limits it (automation.service.ts, checkField). */
const MAX_TEXT = 500;
/** The owner's free-text answer is limited as the automations service limits it. */
const MAX_ANSWER = 2000;

/** One catalog field as a JSON Schema property: the JSON type, our field type as `format`, what the form checks. */
export function formSpecProperty(field: AutomationField): FormSpecProperty {
  const about = { title: field.label, ...(field.description && { description: field.description }) };
  switch (field.type) {
    case 'number':
    case 'boolean':
      return { type: field.type, ...about };
    case 'string':
      return { type: 'string', ...about, maxLength: MAX_TEXT };
    case 'address':
    case 'phone':
    case 'email':
      return { type: 'string', format: field.type, ...about, maxLength: MAX_TEXT };
    case 'date':
      return { type: 'string', format: 'date', ...about, pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    case 'ein':
      return { type: 'string', format: 'ein', ...about, pattern: '^\\d{2}-?\\d{7}$' };
    case 'ssn-last4':
      return { type: 'string', format: 'ssn-last4', ...about, pattern: '^\\d{4}$', writeOnly: true };
  }
}

/** The fields as the JSON Schema of the body `submit_url` takes. */
export function formSpec(fields: readonly AutomationField[]) {
  return {
    type: 'object' as const,
    properties: Object.fromEntries(fields.map((f) => [f.name, formSpecProperty(f)])),
    required: fields.filter((f) => f.required).map((f) => f.name),
    additionalProperties: false as const,
  };
}

const base = (links: RecordLinks) => links.publicBaseUrl.replace(/\/+$/, '');

/** The body of the owner's answer: free text and/or corrected fields, none required (one of them is). */
export function answerFormSpec(fields: readonly AutomationField[]) {
  const response: FormSpecProperty = {
    type: 'string',
    title: 'Your answer',
    description: "The answer to the question in the automation's customer_message.",
    maxLength: MAX_ANSWER,
  };
  const spec = formSpec(fields);
  return { ...spec, properties: { response, ...spec.properties }, required: [] };
}

/**
 * The unversioned `automate` resolution: submit the fields as JSON, or get a hosted page that collects them.
 * While the automation waits on the owner's answer, `submit_url` and `form_spec` are the answer's.
 */
export function automateResolution(links: RecordLinks, taskId: string, fields: readonly AutomationField[], waitingOnAnswer = false) {
  return {
    type: 'automate' as const,
    form_spec: waitingOnAnswer ? answerFormSpec(fields) : formSpec(fields),
    submit_url: `${base(links)}/tasks/${taskId}/${waitingOnAnswer ? 'automation/answer' : 'automate'}`,
    hosted_url: `${base(links)}/tasks/${taskId}/automate/sessions`,
  };
}

/** The v2 `hosted` resolution of an automatable requirement: the operation that returns the hosted automation page. */
export function hostedResolution(links: RecordLinks, taskId: string) {
  return {
    type: 'hosted' as const,
    description:
      'Statehouse files this for the business. POST a callback_url to get a hosted page (automation_url) that collects what the filing needs.',
    method: 'POST',
    url: `${base(links)}/tasks/${taskId}/automate/sessions`,
    content_type: 'application/json',
    fields: [{ name: 'callback_url', description: 'Where the user returns when done.', required: true, type: 'string' }],
  };
}

/** An automatable task offers its automation first while there is work left; a done or dismissed one, its manual steps. */
export const offersAutomation = (status: TaskRow['status']) => status === 'todo' || status === 'in-progress';

/** The v2 `automation_status` and `automation_status_logs` of the task's latest automation. */
export function automationStatusOf(automation: TaskAutomation | undefined) {
  return {
    automation_status: automation?.status ?? null,
    automation_status_logs: (automation?.logs ?? []).map((l) => ({ status: l.status, updated_at: l.at, reason: l.reason })),
  };
}
