import { describe, expect, it } from 'vitest';
import type { AutomationView } from '../modules/automations/contract.js';
import { renderAutomationProgress, type AutomationProgressPage } from './automation-progress-pages.js';
import { refusalText, renderAutomationForm, renderAutomationRefused } from './automation-pages.js';

/** A full automations-service view: the page takes it as it is. */
function automation(overrides: Partial<AutomationView> = {}): AutomationView {
  return {
    id: 'aut_1',
    taskId: 'task_1',
    legalEntityId: 'le_1',
    platformId: 'plt_1',
    requirementId: 'ca-edd-employer-registration',
    region: 'CA',
    agencyId: 'ca-edd',
    fulfilment: 'connector',
    performer: 'sandbox',
    status: 'started',
    statusReason: null,
    customerMessage: null,
    steps: [
      { key: 'submit', label: 'Submit the registration', state: 'done' },
      { key: 'await', label: 'Wait for the agency', state: 'current' },
      { key: 'record', label: 'Record the account', state: 'pending' },
    ],
    logs: [{ status: 'started', reason: null, actor: 'owner', at: '2026-06-01T12:00:00.000Z' }],
    input: {},
    outputs: null,
    assignedTo: null,
    lastError: null,
    dueDate: null,
    createdAt: '2026-06-01T12:00:00.000Z',
    updatedAt: '2026-06-01T12:00:00.000Z',
    completedAt: null,
    ...overrides,
  };
}

const page = (a: AutomationView, extra: Partial<AutomationProgressPage> = {}) =>
  renderAutomationProgress({
    platformName: 'Acme Payroll',
    title: 'Register as an employer',
    agencyName: 'California EDD',
    taskId: 'task_1',
    automation: a,
    dateLabels: { registered_on: 'Registration date' },
    documentUrl: null,
    answer: null,
    notice: null,
    callbackUrl: null,
    ...extra,
  });

describe('the automation progress page', () => {
  it('shows the steps with their state in words, who does it, what happens next, and a way to check again', () => {
    const out = page(automation());
    expect(out).toContain('<li class="done">Submit the registration <span class="visually-hidden">(done)</span>');
    expect(out).toContain('<li class="current" aria-current="step">Wait for the agency');
    expect(out).toContain('Record the account <span class="visually-hidden">(not started)</span>');
    expect(out).toContain('The sandbox files this');
    expect(out).toContain('What happens next:');
    expect(out).toContain('href="/hosted/automation/task_1">Check progress');
    expect(out).not.toContain('<form');
    expect(out).not.toContain('http-equiv');
  });

  it('names our team when a person does it, and a retry when a step failed', () => {
    const out = page(automation({ performer: 'operator', fulfilment: 'operator', lastError: 'portal timed out' }));
    expect(out).toContain('Our team (a person) files this');
    expect(out).toContain('Our team will file it');
    expect(page(automation({ lastError: 'portal timed out' }))).toContain('will be tried again');
  });

  it('when complete: the results (account data, dates, login, confirmation link), the log, no check link', () => {
    const out = page(
      automation({
        status: 'complete',
        steps: automation().steps.map((s) => ({ ...s, state: 'done' as const })),
        logs: [...automation().logs, { status: 'complete', reason: 'Registered', actor: 'sandbox', at: '2026-06-01T12:00:03.000Z' }],
        outputs: {
          agencyAccountId: 'acc_1',
          loginId: 'lgn_1',
          documentId: 'mail_1',
          dates: { registered_on: '2026-06-01' },
          accountData: [{ name: 'Withholding account number', value: '123-4567-8' }],
        },
      }),
      { documentUrl: 'https://statehouse.test/files/mail_1?sig=x' },
    );
    expect(out).toContain('<dt>Withholding account number</dt><dd>123-4567-8</dd>');
    expect(out).toContain('<dt>Registration date</dt>');
    expect(out).toContain('Agency login');
    expect(out).toContain('href="https://statehouse.test/files/mail_1?sig=x"');
    expect(out).toContain('Complete (Registered)');
    expect(out).not.toContain('Check progress');
  });

  it('waiting on the owner: the operator message and an answer form posting with the CSRF token', () => {
    const waiting = automation({
      status: 'waiting_on_customer_response',
      customerMessage: 'Is the first payroll <really> in June?',
      performer: 'operator',
    });
    const out = page(waiting, {
      answer: {
        fields: [{ name: 'first_payroll_date', label: 'First payroll', type: 'date', required: true }],
        values: {},
        errors: {},
        csrf: 'tok',
      },
    });
    expect(out).toContain('Is the first payroll &lt;really&gt; in June?');
    expect(out).toContain('action="/hosted/automation/task_1/answer"');
    expect(out).toContain('name="_csrf" value="tok"');
    expect(out).toContain('name="response"');
    expect(out).toContain('name="first_payroll_date"');
    const refused = page(waiting, {
      answer: { fields: [], values: { response: 'kept' }, errors: { response: 'Write an answer' }, csrf: 'tok' },
    });
    expect(refused).toContain('Write an answer');
    expect(refused).toContain('>kept</textarea>');
  });

  it('canceled: the reason and what the owner can do', () => {
    const out = page(automation({ status: 'canceled', statusReason: 'Duplicate registration' }));
    expect(out).toContain('Reason: Duplicate registration');
    expect(out).toContain('manual steps');
  });
});

describe('refused starts, said in words', () => {
  it('a done task gets no form, and a refused submission keeps what was typed', () => {
    const refused = renderAutomationRefused({ platformName: 'Acme', title: 'Register', reason: refusalText('done'), callbackUrl: null });
    expect(refused).toContain('This task is already done');
    expect(refused).not.toContain('<form');
    const form = renderAutomationForm({
      platformName: 'Acme',
      title: 'Register',
      taskId: 'task_1',
      fields: [{ name: 'officer_name', label: 'Officer', type: 'string', required: true }],
      values: { officer_name: 'Ada' },
      errors: {},
      csrf: 'tok',
      refusal: refusalText('dismissed'),
    });
    expect(form).toContain('role="alert"><p>This task was dismissed');
    expect(form).toContain('value="Ada"');
  });
});
