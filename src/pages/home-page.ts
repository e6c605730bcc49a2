import { html, layout } from './html.js';

/** Where GET / points: the operations' own paths, and the guides that ship with Statehouse. */
export const HOME_LINKS = {
  api_reference: '/docs',
  openapi: '/openapi.json',
  health: '/healthz',
  readiness: '/readyz',
} as const;

const GUIDES: readonly (readonly [string, string])[] = [
  ['README.md', 'quick start: sign a business up, get a token, list its tasks'],
  ['docs/errors.md', 'every error status and body'],
  ['docs/tasks.md', 'how tasks are generated, ordered and filtered'],
  ['docs/hosted-pages.md', 'the pages Statehouse serves to your users'],
  ['docs/webhooks.md', 'signed webhooks and the events they carry'],
];

/** The page at `/`, for a person who opens the server's address in a browser. */
export function renderHomePage(): string {
  return layout({
    title: 'Statehouse',
    body: html`<h1>Statehouse</h1>
<p>Compliance onboarding and tasks for software platforms that manage US businesses. This address serves an HTTP API;
the people a platform signs up reach their own pages through links the platform gives them.</p>
<h2>For developers</h2>
<ul>
<li><a href="${HOME_LINKS.api_reference}">API reference</a>: every operation, tried in the browser</li>
<li><a href="${HOME_LINKS.openapi}">OpenAPI document</a> (OpenAPI 3.1, JSON) for client generators</li>
<li><a href="${HOME_LINKS.health}">Health</a> and <a href="${HOME_LINKS.readiness}">readiness</a> probes</li>
</ul>
<h2>Guides</h2>
<p>In the Statehouse distribution:</p>
<ul>
${GUIDES.map(([file, what]) => html`<li><code>${file}</code>: ${what}</li>`)}
</ul>
<h2>Opened a link from an e-mail?</h2>
<p>Your pages live at the link your platform sent you. If it has expired, ask the platform for a new one.</p>`,
  });
}
