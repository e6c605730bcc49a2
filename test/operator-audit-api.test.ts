import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditService } from '../src/modules/audit/audit.service.js';
import { createPlatformWithEntity, createTestApp, json, signupEntity, type TestApp } from './helpers/app.js';
import { cookieSet, createOperatorKey, openOperatorLink, operatorBrowser } from './helpers/back-office.js';
import { runCli } from './helpers/cli.js';
import { tinyPdf } from './helpers/pdf.js';

interface AuditEvent {
  id: string;
  operator: { key_id: string; name: string };
  action: string;
  subject: { type: string; id: string };
  legal_entity_id: string | null;
  details: Record<string, unknown>;
}

describe('operator audit trail: GET /operator/v1/audit-events, the audited operator API, and the CLI', () => {
  let t: TestApp;
  let key: string;
  let keyId: string;
  let entityId: string;
  let otherEntityId: string;
  const op = () => ({ authorization: `Bearer ${key}` });
  const events = async (query = '') => {
    const res = await t.app.inject({ url: `/operator/v1/audit-events${query}`, headers: op() });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ events: AuditEvent[]; next_before: string | null }>(res);
  };

  beforeAll(async () => {
    t = await createTestApp({ dataDir: mkdtempSync(path.join(tmpdir(), 'statehouse-audit-')) });
    ({ key, id: keyId } = await createOperatorKey(t.db, 'Grace'));
    let apiKey: string;
    ({ apiKey, entityId } = await createPlatformWithEntity(t));
    otherEntityId = await signupEntity(t.app, apiKey);
  });
  afterAll(() => t.close());

  it("records the operator API's actions: agency accounts, logins (never their secrets) and mail", async () => {
    const account = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
      headers: op(),
      payload: {
        region: 'CA',
        agency_id: 'ca-edd',
        name: 'Employer payroll tax account',
        data: [{ name: 'Account number', value: '123-4567-8' }],
      },
    });
    expect(account.statusCode, account.body).toBe(201);
    const login = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/logins`,
      headers: op(),
      payload: {
        region: 'CA',
        name: 'EDD e-Services',
        login_url: 'https://edd.ca.gov/login',
        agency_account_id: json(account).id,
        secrets: { username: 'grace-4410', password: 'S3cret-value!' },
      },
    });
    expect(login.statusCode, login.body).toBe(201);
    const mail = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${otherEntityId}/mail?region=CA`,
      headers: { ...op(), 'content-type': 'application/pdf' },
      payload: tinyPdf('audited'),
    });
    expect(mail.statusCode, mail.body).toBe(201);

    const { events: trail } = await events();
    expect(trail.map((e) => [e.action, e.subject.type, e.subject.id, e.legal_entity_id])).toEqual([
      ['mail_item.create', 'mail_item', json(mail).id, otherEntityId],
      ['login.create', 'login', json(login).id, entityId],
      ['agency_account.create', 'agency_account', json(account).id, entityId],
    ]);
    for (const e of trail) expect(e.operator).toEqual({ key_id: keyId, name: 'Grace' });
    expect(trail[2]!.details).toMatchObject({ region: 'CA', agency_id: 'ca-edd' });
    expect(JSON.stringify(trail)).not.toContain('S3cret-value!');
    expect(JSON.stringify(trail)).not.toContain('grace-4410');
  });

  it('records nothing for a refused action', async () => {
    const before = (await events()).events.length;
    const refused = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
      headers: op(),
      payload: { region: 'CA', agency_id: 'nope', name: 'x' },
    });
    expect(refused.statusCode).toBe(422);
    const broken = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/mail`,
      headers: { ...op(), 'content-type': 'application/pdf' },
      payload: Buffer.from('%PDF-1.4 truncated'),
    });
    expect(broken.statusCode).toBe(422);
    expect((await events()).events.length).toBe(before);
  });

  it('filters by entity, subject, operator and action, and pages with `before`', async () => {
    const audit = createAuditService({ db: t.db });
    const other = { keyId: 'opk_other', name: 'Other' };
    for (let i = 0; i < 5; i++) {
      await t.db.transaction().execute((trx) =>
        audit.record(trx, {
          operator: other,
          action: 'automation.claim',
          subjectType: 'automation',
          subjectId: `aut_${i}`,
          legalEntityId: otherEntityId,
        }),
      );
    }
    expect((await events(`?legal_entity_id=${entityId}`)).events.map((e) => e.action)).toEqual(['login.create', 'agency_account.create']);
    expect((await events('?subject_type=login')).events).toHaveLength(1);
    expect((await events('?subject_id=aut_3')).events.map((e) => e.subject.id)).toEqual(['aut_3']);
    expect((await events(`?operator_key_id=${keyId}`)).events).toHaveLength(3);
    expect((await events('?action=automation.claim&operator_key_id=opk_other')).events).toHaveLength(5);

    const first = await events('?action=automation.claim&limit=2');
    expect(first.events.map((e) => e.subject.id)).toEqual(['aut_4', 'aut_3']);
    const second = await events(`?action=automation.claim&limit=2&before=${first.next_before}`);
    const third = await events(`?action=automation.claim&limit=2&before=${second.next_before}`);
    expect([...second.events, ...third.events].map((e) => e.subject.id)).toEqual(['aut_2', 'aut_1', 'aut_0']);
    expect(third.next_before).toBeNull();
  });

  it('pages through events recorded within one millisecond without skipping any (the cursor keeps its microseconds)', async () => {
    // Three events 100 µs apart, all in the same millisecond: a cursor read into a JS Date would lose the difference.
    const at = (micros: string) => sql<Date>`${`2026-01-01 00:00:00.123${micros}+00`}::timestamptz`;
    await t.db
      .insertInto('operator_audit_events')
      .values(
        ['100', '200', '300'].map((micros) => ({
          id: `aud_same_ms_${micros}`,
          operator_key_id: 'opk_same_ms',
          operator_name: 'Same ms',
          action: 'automation.claim',
          subject_type: 'automation',
          subject_id: `aut_same_ms_${micros}`,
          details: '{}',
          created_at: at(micros),
        })),
      )
      .execute();
    const seen: string[] = [];
    let page = await events('?operator_key_id=opk_same_ms&limit=1');
    seen.push(...page.events.map((e) => e.id));
    while (page.next_before) {
      page = await events(`?operator_key_id=opk_same_ms&limit=1&before=${page.next_before}`);
      seen.push(...page.events.map((e) => e.id));
    }
    expect(seen).toEqual(['aud_same_ms_300', 'aud_same_ms_200', 'aud_same_ms_100']);
  });

  it('answers 422 for bad filters and 401 without an operator key', async () => {
    for (const [query, loc] of [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=many', 'limit'],
      ['?before=aud_unknown', 'before'],
      [`?legal_entity_id=${'x'.repeat(65)}`, 'legal_entity_id'],
    ] as const) {
      const res = await t.app.inject({ url: `/operator/v1/audit-events${query}`, headers: op() });
      expect(res.statusCode, query).toBe(422);
      expect(json(res).detail[0].loc, query).toEqual(['query', loc]);
    }
    expect((await t.app.inject({ url: '/operator/v1/audit-events' })).statusCode).toBe(401);
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    expect(doc.paths['/operator/v1/audit-events'].get.operationId).toBe('operatorListAuditEvents');
  });

  it('CLI: `operators audit` lists the trail (--legal-entity, --json); `operators login` prints a link that signs in once', async () => {
    const env = { DATABASE_URL: t.url, PUBLIC_BASE_URL: 'http://statehouse.test' };
    const listed = await runCli(['operators', 'audit', '--legal-entity', entityId, '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((e: AuditEvent) => e.action)).toEqual(['login.create', 'agency_account.create']);
    const text = await runCli(['operators', 'audit', '--limit', '1'], env);
    expect(text.stdout).toMatch(/automation\.claim|mail_item\.create|login\.create/);
    expect(text.stdout.trim().split('\n')).toHaveLength(1);
    expect((await runCli(['operators', 'audit', '--limit', '500'], env)).code).toBe(2);

    const login = await runCli(['operators', 'login', '--key-id', 'Grace'], env);
    expect(login.code, login.stderr).toBe(0);
    const url = login.stdout.trim();
    expect(url).toMatch(/^http:\/\/statehouse\.test\/operator\/link\/[A-Za-z0-9_-]{40,}$/);
    expect(login.stderr).toContain('works once');
    const opened = await openOperatorLink(t.app, url);
    expect(opened.statusCode).toBe(303);
    expect((await operatorBrowser(t.app, cookieSet(opened)!.pair).get('/operator')).body).toContain('Signed in as Grace');
    expect((await t.app.inject({ url: new URL(url).pathname })).statusCode).toBe(401);

    const byId = await runCli(['operators', 'login', '--key-id', keyId, '--json'], env);
    expect(JSON.parse(byId.stdout)).toMatchObject({ operator_key_id: keyId, operator_name: 'Grace' });
    const unknown = await runCli(['operators', 'login', '--key-id', 'nobody'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No live operator key 'nobody'");
  });
});
