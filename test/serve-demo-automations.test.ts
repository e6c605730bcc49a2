/**
 * `statehouse serve --demo` shows fulfilment: the active demo entity has a NY payroll registration the sandbox
 * agency completed (agency account with its number, login, confirmation document in the mail and on the hosted
 * documents page) and a CA foreign qualification waiting in the operator queue, found through the commands the
 * instructions print; a restart finds them again instead of filing twice.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './helpers/cli.js';
import { waitUntil } from './helpers/wait.js';

interface Automation {
  id: string;
  requirement_id: string;
  status: string;
  performer: string;
  last_error: string | null;
  outputs: {
    agency_account_id: string;
    login_id: string | null;
    document_id: string;
    account_data: { name: string; value: string }[];
  } | null;
}

/** What the printed instructions say: the key, the active entity and the two automations' task ids. */
function instructions(out: string) {
  const key = /^sh_key_\S+$/m.exec(out)?.[0];
  const entity = /Demo legal entity \(active[^:]*: (le_\w+)/.exec(out)?.[1];
  const filed = /\$BASE\/tasks\/(task_\w+)\/automation .*# NY payroll registration/.exec(out)?.[1];
  const queued = /\$BASE\/tasks\/(task_\w+)\/automation .*# CA foreign qualification/.exec(out)?.[1];
  return key && entity && filed && queued ? { key, entity, filed, queued } : null;
}

describe('serve --demo: a completed sandbox automation and one in the operator queue', { timeout: 180_000 }, () => {
  let root: string;
  let server: ServeProcess | null = null;
  const env = () => ({ STATEHOUSE_DATA_DIR: path.join(root, 'data'), DATABASE_URL: '', PUBLIC_BASE_URL: 'http://statehouse.test' });

  const start = async () => {
    server = await startServe(env(), ['--demo']);
    const printed = await waitUntil(() => instructions(server!.output()), 'the demo instructions with the automations', {
      timeoutMs: 120_000,
    });
    const auth = await fetch(`${server.url}/accounts/auth`, {
      method: 'POST',
      headers: { authorization: printed.key, 'content-type': 'application/json' },
      body: JSON.stringify({ legal_entity_id: printed.entity }),
    });
    expect(auth.status).toBe(200);
    const { access_token: token } = (await auth.json()) as { access_token: string };
    const get = async <T>(url: string) => {
      const res = await fetch(`${server!.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, `GET ${url}`).toBe(200);
      return (await res.json()) as T;
    };
    return { ...printed, token, get };
  };
  const stop = async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    server = null;
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'statehouse-demo-automations-'));
    await chmod(root, 0o755); // the embedded PostgreSQL runs as `postgres` when we are root
  });
  afterAll(async () => {
    await stop();
    await rm(root, { recursive: true, force: true });
  });

  let first: { tasks: string[]; filed: Automation; queued: Automation; accounts: number; mail: number };

  it('the sandbox filed the NY payroll registration: account number, login, confirmation document in the API and the hosted documents page', async () => {
    const demo = await start();
    const filed = await demo.get<Automation>(`/tasks/${demo.filed}/automation`);
    expect(filed).toMatchObject({ requirement_id: 'ny-employer-registration', status: 'complete', performer: 'sandbox' });
    const number = filed.outputs!.account_data.find((d) => d.name === 'Withholding account number')?.value;
    expect(number).toMatch(/^\d{10}$/);

    const accounts =
      await demo.get<{ id: string; data: { name: string; value: string | null }[]; logins: { id: string }[] }[]>('/v2/agency_accounts');
    const account = accounts.find((a) => a.id === filed.outputs!.agency_account_id)!;
    expect(account.data).toContainEqual(expect.objectContaining({ name: 'Withholding account number', value: number }));
    expect(account.logins.map((l) => l.id)).toEqual([filed.outputs!.login_id]);

    const mail = await demo.get<{ id: string; sender: string; file_url: string }[]>('/v2/mail');
    const document = mail.find((m) => m.id === filed.outputs!.document_id)!;
    expect(document.sender).toMatch(/^New York State Department of Labor/);
    const pdf = await fetch(document.file_url.replace(/^https?:\/\/[^/]+/, server!.url));
    expect(Buffer.from(await pdf.arrayBuffer()).toString('latin1')).toContain(`Withholding account number: ${number}`);

    // The hosted documents page, through the link the instructions' command creates.
    const session = await fetch(`${server!.url}/v2/documents/manage/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ callback_url: 'https://example.com/' }),
    });
    expect(session.status).toBe(200);
    const link = new URL(((await session.json()) as { url: string }).url);
    // Its page spends nothing; its button posts the token (test/hosted-link-confirm.test.ts).
    const confirmation = await fetch(`${server!.url}${link.pathname}`);
    const secret = /name="token" value="([^"]+)"/.exec(await confirmation.text())?.[1] ?? '';
    const exchanged = await fetch(`${server!.url}/hosted/s`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: secret }),
    });
    expect(exchanged.status).toBe(303);
    const cookie = exchanged.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await fetch(new URL(exchanged.headers.get('location')!, server!.url), { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('New York State Department of Labor');

    const queued = await demo.get<Automation>(`/tasks/${demo.queued}/automation`);
    first = { tasks: [demo.filed, demo.queued], filed, queued, accounts: accounts.length, mail: mail.length };
  });

  it('the CA foreign qualification waits in the operator queue after the sandbox portal failed every try', () => {
    expect(first.queued).toMatchObject({
      requirement_id: 'ca-foreign-qualification-corporation',
      status: 'started',
      performer: 'operator',
      outputs: null,
    });
    expect(first.queued.last_error).toContain('connector-error');
  });

  it('a restart shows the same automations and files nothing twice', async () => {
    await stop();
    const demo = await start();
    expect([demo.filed, demo.queued]).toEqual(first.tasks);
    const filed = await demo.get<Automation>(`/tasks/${demo.filed}/automation`);
    const queued = await demo.get<Automation>(`/tasks/${demo.queued}/automation`);
    expect([filed.id, queued.id]).toEqual([first.filed.id, first.queued.id]);
    expect(queued).toMatchObject({ status: 'started', performer: 'operator' });
    expect((await demo.get<unknown[]>('/v2/agency_accounts')).length).toBe(first.accounts);
    expect((await demo.get<unknown[]>('/v2/mail')).length).toBe(first.mail);
  });
});
