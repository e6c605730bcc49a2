import path from 'node:path';
import type { Config } from '../config.js';
import { DEMO_KEY_FILE, type DemoData } from '../modules/demo/contract.js';

/** The demo key is kept in the data directory so `serve --demo` prints the same one at every start; `demo` issues a fresh one. */
export const demoKey = (config: Config, reuse: boolean) => ({ file: path.join(config.dataDir, DEMO_KEY_FILE), reuse });

export function demoInstructions(config: Config, demo: DemoData): string {
  const base = config.publicBaseUrl;
  return [
    `Demo API key (kept in ${path.join(config.dataDir, DEMO_KEY_FILE)}; \`npm start\` prints the same one again):`,
    demo.apiKey,
    '',
    `Demo legal entity (active, locations CA and NY): ${demo.legalEntityId}`,
    `Demo legal entity waiting for signup:           ${demo.inactiveLegalEntityId}`,
    '',
    'Try:',
    `  export BASE=${base} KEY=${demo.apiKey}`,
    `  TOKEN=$(curl -s -X POST $BASE/accounts/auth -H "Authorization: $KEY" -H 'content-type: application/json' \\`,
    `    -d '{"legal_entity_id":"${demo.legalEntityId}"}' | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    '  curl -s $BASE/legal_entity -H "Authorization: Bearer $TOKEN"',
    '  curl -s $BASE/locations -H "Authorization: Bearer $TOKEN"',
    '  curl -s $BASE/v2/agency_accounts -H "Authorization: Bearer $TOKEN"   # with a login; POST /accounts/connect to connect it',
    '  curl -s $BASE/v2/mail -H "Authorization: Bearer $TOKEN"              # file_url downloads the PDF, no token needed',
    ...automationLines(demo),
    `  API reference: ${base}/docs`,
  ].join('\n');
}

/** The demo's automations (serve --demo): the one the sandbox filed, and the one waiting in the operator queue. */
function automationLines(demo: DemoData): string[] {
  const { filed, queued } = demo.automations ?? {};
  const lines: string[] = [];
  if (filed) {
    lines.push(
      `  curl -s $BASE/tasks/${filed.taskId}/automation -H "Authorization: Bearer $TOKEN"   # NY payroll registration filed by the sandbox agency (${filed.status}): account number, login, confirmation document_id`,
      `  curl -s -X POST $BASE/v2/documents/manage/session -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"callback_url":"https://example.com/"}'   # hosted page listing the confirmation PDF`,
    );
  }
  if (queued) {
    lines.push(
      `  curl -s $BASE/tasks/${queued.taskId}/automation -H "Authorization: Bearer $TOKEN"   # CA foreign qualification (${queued.status}, performer ${queued.performer}): the sandbox's test value connector-error failed every try, so it waits in the operator queue`,
      '  npx statehouse operators keys create demo-operator      # once, in another terminal; then a one-time sign-in link to the back office (/operator),',
      '  npx statehouse operators login --key-id demo-operator   # whose queue lists that CA foreign qualification',
    );
  }
  return lines;
}
