import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../catalog/catalog.js';
import { regionByCode } from '../../catalog/regions.js';
import type { TaskRow } from '../../db/schema.js';
import { formSpec, formSpecProperty } from './task-automation.views.js';
import { toAccountTask, toPlatformTask } from './tasks.views.js';
import type { TaskAutomation, TaskView } from './task-view.js';

const catalog = loadCatalog();
const NOW = new Date('2026-06-01T12:00:00Z');
const context = { catalog, publicBaseUrl: 'https://statehouse.example/base/' };

function requirementView(definitionId: string, status: TaskRow['status'], automation?: TaskAutomation): TaskView {
  const found = catalog.requirement(definitionId)!;
  const row: TaskRow = {
    id: 'task_1',
    legal_entity_id: 'le_a',
    kind: 'requirement',
    definition_id: definitionId,
    region_code: 'CA',
    period_key: 'once',
    period_start_date: null,
    period_end_date: null,
    due_date: null,
    status,
    answer: null,
    criteria_met: [],
    blocked_by: [],
    applicable: true,
    acted_at: null,
    completed_at: null,
    revision: 0,
    due_date_rule: null,
    due_date_exact: null,
    due_date_question: null,
    created_at: NOW,
    updated_at: NOW,
  };
  return { row, kind: 'requirement', region: regionByCode('CA')!, definition: found.definition, agency: found.agency, automation };
}

describe('form_spec: the catalog fields as a JSON Schema', () => {
  it('maps every field type to a JSON type, our type as format, and what the hosted form checks', () => {
    const field = (type: Parameters<typeof formSpecProperty>[0]['type']) =>
      formSpecProperty({ name: 'x', label: 'X', type, required: true });
    expect(field('string')).toEqual({ type: 'string', title: 'X', maxLength: 500 });
    expect(field('number')).toEqual({ type: 'number', title: 'X' });
    expect(field('boolean')).toEqual({ type: 'boolean', title: 'X' });
    expect(field('date')).toMatchObject({ type: 'string', format: 'date' });
    expect(field('email')).toMatchObject({ type: 'string', format: 'email' });
    expect(field('phone')).toMatchObject({ type: 'string', format: 'phone' });
    expect(field('address')).toMatchObject({ type: 'string', format: 'address' });
    expect(field('ein')).toMatchObject({ type: 'string', format: 'ein', pattern: '^\\d{2}-?\\d{7}$' });
    expect(field('ssn-last4')).toEqual({ type: 'string', format: 'ssn-last4', title: 'X', pattern: '^\\d{4}$', writeOnly: true });
    expect(new RegExp(field('ein').pattern!).test('12-3456789')).toBe(true);
    expect(new RegExp(field('ssn-last4').pattern!).test('12345')).toBe(false);
  });

  it('keeps the catalog order, the labels and descriptions, and lists only the required fields as required', () => {
    const spec = formSpec([
      { name: 'b_first', label: 'First', type: 'string', required: true, description: 'Said first' },
      { name: 'a_second', label: 'Second', type: 'date', required: false },
    ]);
    expect(Object.keys(spec.properties)).toEqual(['b_first', 'a_second']);
    expect(spec.properties.b_first).toMatchObject({ title: 'First', description: 'Said first' });
    expect(spec.required).toEqual(['b_first']);
    expect(spec).toMatchObject({ type: 'object', additionalProperties: false });
  });
});

describe('task records of an automatable requirement', () => {
  const automatable = 'ca-edd-employer-registration';
  const manualOnly = 'ca-foreign-qualification-llc';

  it('carry the automate resolution beside the manual steps, with links under the public base URL', () => {
    const record = toAccountTask(context, requirementView(automatable, 'todo'));
    const fields = catalog.requirement(automatable)!.definition.resolutions.automation!.fields;
    expect(record.resolutions.manual?.steps.length).toBeGreaterThan(0);
    expect(record.resolutions.automate).toEqual({
      type: 'automate',
      form_spec: formSpec(fields),
      submit_url: 'https://statehouse.example/base/tasks/task_1/automate',
      hosted_url: 'https://statehouse.example/base/tasks/task_1/automate/sessions',
    });
    expect(record.default_resolution_name).toBe('automate');
  });

  it('default to the manual steps once done or dismissed, and never offer automation the catalog does not declare', () => {
    expect(toAccountTask(context, requirementView(automatable, 'in-progress')).default_resolution_name).toBe('automate');
    expect(toAccountTask(context, requirementView(automatable, 'done')).default_resolution_name).toBe('manual');
    expect(toAccountTask(context, requirementView(automatable, 'dismissed')).default_resolution_name).toBe('manual');
    const manual = toAccountTask(context, requirementView(manualOnly, 'todo'));
    expect(manual.resolutions.automate).toBeUndefined();
    expect(manual.default_resolution_name).toBe('manual');
  });

  it('in v2: a hosted resolution (the automation session) as default, and the automation status with its logs', () => {
    const logs = [
      { status: 'started' as const, reason: null, actor: 'owner', at: '2026-06-01T12:00:00.000Z' },
      { status: 'complete' as const, reason: 'Filed', actor: 'sandbox', at: '2026-06-01T12:00:05.000Z' },
    ];
    const task = toPlatformTask(
      context,
      requirementView(automatable, 'in-progress', { status: 'complete', statusReason: null, logs, outputs: null, performer: 'sandbox' }),
    );
    if (task.source.type !== 'requirement') throw new Error('a requirement task');
    expect(task.source.default_resolution_name).toBe('hosted');
    expect(task.source.resolutions.hosted).toMatchObject({
      type: 'hosted',
      method: 'POST',
      url: 'https://statehouse.example/base/tasks/task_1/automate/sessions',
    });
    expect(task.source.resolutions.hosted?.fields.map((f) => f.name)).toEqual(['callback_url']);
    expect(task.source.automation_status).toBe('complete');
    expect(task.source.automation_status_logs).toEqual([
      { status: 'started', updated_at: '2026-06-01T12:00:00.000Z', reason: null },
      { status: 'complete', updated_at: '2026-06-01T12:00:05.000Z', reason: 'Filed' },
    ]);

    const manual = toPlatformTask(context, requirementView(manualOnly, 'todo'));
    if (manual.source.type !== 'requirement') throw new Error('a requirement task');
    expect(manual.source).toMatchObject({ default_resolution_name: 'manual', automation_status: null, automation_status_logs: [] });
    expect(manual.source.resolutions.hosted).toBeNull();
  });
});
