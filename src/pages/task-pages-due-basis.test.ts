import { describe, expect, it } from 'vitest';
import { renderTaskDetail } from './task-detail-page.js';
import type { TaskItem } from './task-item.js';

const item = (dueBasis: TaskItem['dueBasis']): TaskItem => ({
  id: 'task_1',
  kind: 'requirement',
  title: 'File the annual report',
  summary: 'Every year.',
  description: 'Every year.',
  regionCode: 'NY',
  regionName: 'New York',
  status: 'todo',
  dueDate: '2027-04-30',
  overdue: false,
  dueHint: null,
  dueBasis,
  category: 'registration-maintenance',
  fee: '$9.00',
  priority: 'medium',
  reasons: [],
  resources: [],
  steps: [],
  agency: 'Department of State',
  blockedBy: [],
  unlocks: [],
  answerType: null,
  answer: null,
  automation: null,
});
const detail = (task: TaskItem) =>
  renderTaskDetail({ platformName: 'Acme', task, csrf: 'c', backToList: true, callbackUrl: null, notice: null });
const RULE = 'Due the last day of the anniversary month of registration, every two years counted from the registration year';

describe('task page: the rule behind the due date', () => {
  it('an exact date: "Due <date> — <rule>", no estimate', () => {
    const html = detail(item({ rule: RULE, exact: true, question: null }));
    expect(html).toContain(
      '<p class="due-basis">Due <time datetime="2027-04-30">April 30, 2027</time> — the last day of the anniversary month of registration, every two years counted from the registration year</p>',
    );
    expect(html).not.toContain('Estimated');
  });

  it('an estimated date links the question that makes it exact', () => {
    const html = detail(
      item({
        rule: RULE,
        exact: false,
        question: { title: 'On what date was the business registered with the state of New York?', taskId: 'task_q' },
      }),
    );
    expect(html).toContain(
      '<p class="due-basis estimated"><strong>Estimated:</strong> answer “<a href="/hosted/tasks/task_q">On what date was the business registered with the state of New York?</a>” to make it exact.</p>',
    );
  });

  it('without a question task in the page, names the question', () => {
    const html = detail(item({ rule: RULE, exact: false, question: { title: 'On what date?', taskId: null } }));
    expect(html).toContain('answer “On what date?” to make it exact.');
  });

  it('no due date: no rule line', () => {
    expect(detail({ ...item(null), dueDate: null })).not.toContain('due-basis');
  });
});
