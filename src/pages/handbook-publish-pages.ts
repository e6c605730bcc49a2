// Step 5 of the hosted handbook builder (review and publish) and the page after publishing.
import { csrfInput } from './components.js';
import { builderPage, nextStep, STATUS_WORDS, type BuilderFrame, type EmployeeView } from './handbook-builder-frame.js';
import { html, type Raw } from './html.js';

/** Step 5: what will be published, and the button. */
export function renderHandbookReview(
  frame: BuilderFrame,
  data: {
    blockers: string[];
    sections: { heading: string; titles: string[] }[];
    employees: number;
    nextVersion: number;
    error?: string | null;
    /** Why there is nothing to publish: the draft is the latest version's content. */
    unchanged?: string | null;
  },
): string {
  return builderPage(
    frame,
    'Review and publish',
    'publish',
    html`
${data.error ? html`<div class="notice error" role="alert"><p>${data.error}</p></div>` : ''}
${
  data.blockers.length
    ? html`<h2>Not ready yet</h2><ul>${data.blockers.map((b) => html`<li>${b}</li>`)}</ul>`
    : data.unchanged
      ? html`<div class="notice" role="status"><p>${data.unchanged}</p><p>Change your answers, policies or states first; employees listed later get their link to the latest version at once.</p></div>`
      : html`<p>Publishing creates version ${data.nextVersion}. Published versions are kept as they are: a later change makes a new version, and employees are asked to acknowledge it.</p>`
}
${data.sections.map((s) => html`<h2>${s.heading}</h2><ul>${s.titles.map((t) => html`<li>${t}</li>`)}</ul>`)}
<p>${data.employees === 1 ? '1 employee' : `${data.employees} employees`} will get a personal link. <a href="/hosted/handbook/employees">Change the list</a></p>
${data.blockers.length || data.unchanged ? '' : html`<form method="post" action="/hosted/handbook/publish">${csrfInput(frame.csrf)}${nextStep(`Publish version ${data.nextVersion}`)}</form>`}`,
  );
}

/** After publishing: the handbook itself, its PDF, and each employee's link. */
export function renderHandbookPublished(
  frame: BuilderFrame,
  data: {
    article: Raw;
    version: number;
    pdfUrl: string;
    employees: EmployeeView[];
    callbackUrl: string | null;
  },
): string {
  const mailto = (e: EmployeeView) =>
    `mailto:${encodeURIComponent(e.email ?? '')}?subject=${encodeURIComponent(`Please read and acknowledge the ${frame.businessName} employee handbook`)}&body=${encodeURIComponent(`Hello ${e.name},\n\nPlease read our employee handbook (version ${data.version}) and acknowledge it here:\n${e.ackUrl ?? ''}\n`)}`;
  return builderPage(
    frame,
    `Version ${data.version} is published`,
    null,
    html`
<p class="actions"><a class="button" href="${data.pdfUrl}">Download the PDF</a> <a class="button secondary" href="/hosted/handbook">Back to the handbook builder</a>${data.callbackUrl ? html` <a class="button secondary" href="${data.callbackUrl}">Return to ${frame.platformName}</a>` : ''}</p>
<p class="hint">The download link works for a limited time; come back here for a fresh one.</p>
<h2>Employees' acknowledgement links</h2>
${
  data.employees.length === 0
    ? html`<p>No employees listed. <a href="/hosted/handbook/employees">Add employees</a> to send them their links.</p>`
    : html`<ul class="tasks">${data.employees.map(
        (e) => html`<li class="task">
<h3>${e.name}</h3><p class="meta">${STATUS_WORDS[e.status]}</p>
<div class="field"><label for="ack-${e.id}">Personal link of ${e.name}</label><input id="ack-${e.id}" type="text" readonly value="${e.ackUrl ?? ''}"></div>
${e.email ? html`<p><a href="${mailto(e)}">E-mail the link to ${e.name}</a></p>` : html`<p class="hint">No e-mail address: copy the link and send it another way.</p>`}
</li>`,
      )}</ul>`
}
${data.article}`,
  );
}
