// Step 4 of the hosted handbook builder: the employees who receive the handbook.
import { csrfInput, errorSummary, textField } from './components.js';
import { builderPage, STATUS_WORDS, type BuilderFrame, type EmployeeView } from './handbook-builder-frame.js';
import { html } from './html.js';

/** Step 4: the employees who receive the handbook: add, edit, remove. */
export function renderHandbookEmployees(
  frame: BuilderFrame,
  data: {
    employees: EmployeeView[];
    published: boolean;
    add: { values: Record<string, string>; errors: Record<string, string> };
    edit: { id: string; values: Record<string, string>; errors: Record<string, string> } | null;
  },
): string {
  const employeeForm = (
    action: string,
    values: Record<string, string>,
    errors: Record<string, string>,
    button: string,
    prefix = '',
  ) => html`
<form method="post" action="${action}" novalidate>${csrfInput(frame.csrf)}
${textField({ name: `${prefix}name`, label: 'Full name', value: values.name ?? '', error: errors.name, required: true, autocomplete: 'off' })}
${textField({ name: `${prefix}email`, label: 'E-mail address', value: values.email ?? '', error: errors.email, type: 'email', autocomplete: 'off', hint: 'Optional. Nothing is e-mailed for you: once you publish, you send each employee their personal link yourself, from your mail app or by copying the link.' })}
<p class="actions"><button type="submit">${button}</button></p></form>`;
  const allErrors = { ...data.add.errors, ...(data.edit?.errors ?? {}) };
  return builderPage(
    frame,
    'Employees',
    'employees',
    html`
<p>List everyone who should read and acknowledge the handbook.${data.published ? ' Each one gets a personal link to the latest version.' : ' Once you publish, each one gets a personal link.'}</p>
${errorSummary(allErrors, { name: 'Full name', email: 'E-mail address' })}
${
  data.employees.length === 0
    ? html`<p class="empty">No employees listed yet.</p>`
    : html`<ul class="tasks employees">${data.employees.map(
        (e) => html`<li class="task">
<h2>${e.name}</h2>
<p class="meta">${e.email ?? 'No e-mail address'}${data.published ? html` · ${STATUS_WORDS[e.status]}` : ''}</p>
${
  data.edit?.id === e.id
    ? employeeForm(`/hosted/handbook/employees/${e.id}`, data.edit.values, data.edit.errors, 'Save changes')
    : html`<p class="task-actions"><a class="button secondary" href="/hosted/handbook/employees/${e.id}/edit">Edit ${e.name}</a></p>`
}
<form method="post" action="/hosted/handbook/employees/${e.id}/remove" class="inline-form">${csrfInput(frame.csrf)}<button type="submit" class="secondary">Remove ${e.name}</button></form>
</li>`,
      )}</ul>`
}
<h2>Add an employee</h2>
${employeeForm('/hosted/handbook/employees', data.add.values, data.add.errors, 'Add employee')}
<p class="actions"><a class="button" href="/hosted/handbook/publish">Continue to review</a></p>`,
  );
}
