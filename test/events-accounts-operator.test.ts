/**
 * agency_account.created / agency_account.updated / login.created: recorded with the operator API's change (and
 * the CLI's, which shares the service), in the /v2 shapes the platform lists, never with a secret; a refused
 * change records nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { eventsOf, eventsText } from './helpers/outbox.js';

const SECRETS = {
  username: 'evt-user-5521',
  password: 'Evt-pa55word-never-in-events!',
  totp_seed: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
  security_answers: [{ question: 'First pet?', answer: 'Rex-the-answer-7781' }],
};

describe('events: agency accounts and logins', () => {
  let t: TestApp;
  let op: { authorization: string };
  let entityId: string;
  let platformId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    op = { authorization: `Bearer ${(await createOperatorsService(t.db).createKey('ops')).key}` };
    ({ entityId, platformId, token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t?.close());

  const accountTypes = ['agency_account.created', 'agency_account.updated', 'login.created'];
  const listed = async (path: string) => json<Record<string, unknown>[]>(await t.app.inject({ url: path, headers: bearer(token) }));

  it('an operator-recorded account and login each record their event, as GET /v2/agency_accounts and /v2/logins list them', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
      headers: op,
      payload: {
        region: 'CA',
        agency_id: 'ca-edd',
        name: 'Employer payroll tax account',
        data: [{ name: 'Account number', value: '123-4567-8' }],
      },
    });
    expect(created.statusCode).toBe(201);
    const accountId = json(created).id as string;
    const [accountCreated] = await eventsOf(t, entityId, accountTypes);
    expect(accountCreated).toMatchObject({ type: 'agency_account.created', platform_id: platformId, legal_entity_id: entityId });
    expect(accountCreated!.data).toEqual({ object: (await listed('/v2/agency_accounts')).find((a) => a.id === accountId) });

    const login = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/logins`,
      headers: op,
      payload: {
        region: 'CA',
        name: 'EDD e-Services',
        login_url: 'https://eddservices.edd.ca.gov/',
        agency_account_id: accountId,
        secrets: SECRETS,
      },
    });
    expect(login.statusCode).toBe(201);
    const loginId = json(login).id as string;
    const events = await eventsOf(t, entityId, accountTypes);
    expect(events.map((e) => [e.type, e.data.changed ?? null])).toEqual([
      ['agency_account.created', null],
      ['login.created', null],
      ['agency_account.updated', ['logins']],
    ]);
    expect(events[1]!.data.object).toEqual((await listed('/v2/logins')).find((l) => l.id === loginId));
    // The account as it is now: with its new login.
    expect(events[2]!.data.object).toEqual((await listed('/v2/agency_accounts')).find((a) => a.id === accountId));
    expect((events[2]!.data.object.logins as { id: string }[]).map((l) => l.id)).toEqual([loginId]);

    // No secret, password, TOTP seed, security answer or sealed byte in any payload.
    const text = await eventsText(t, entityId);
    for (const secret of [SECRETS.username, SECRETS.password, SECRETS.totp_seed, SECRETS.security_answers[0]!.answer])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/secret|ciphertext|"iv"|key_id|password|totp/i);
  });

  it('a refused account or login records nothing', async () => {
    const before = (await eventsOf(t, entityId)).length;
    const unknownAgency = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
      headers: op,
      payload: { region: 'CA', agency_id: 'ny-dol', name: 'Wrong agency' },
    });
    expect(unknownAgency.statusCode).toBe(422);
    const [account] = await listed('/v2/agency_accounts');
    const wrongRegion = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/logins`,
      headers: op,
      payload: { region: 'NY', name: 'Elsewhere', login_url: 'https://example.com/', agency_account_id: account!.id, secrets: SECRETS },
    });
    expect(wrongRegion.statusCode).toBe(422);
    const badSecrets = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/logins`,
      headers: op,
      payload: { region: 'CA', name: 'No password', login_url: 'https://example.com/', secrets: { username: 'x' } },
    });
    expect(badSecrets.statusCode).toBeGreaterThanOrEqual(400);
    expect(badSecrets.statusCode).toBeLessThan(500);
    expect(await eventsOf(t, entityId)).toHaveLength(before);
  });
});
