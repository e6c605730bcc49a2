import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, json, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';

describe('signup: the entity and its signup link commit together', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(() => t.close());

  it('a failure after the entity is inserted leaves no entity and no link; a retry with the same external_company_id succeeds', async () => {
    const payload = { ...VALID_SIGNUP_V2, external_company_id: 'atomic-signup-1' };
    const signup = () => t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: `Bearer ${apiKey}` }, payload });
    // The link's insert fails: it comes after the entity's, in the signup's transaction.
    await sql`create function refuse_link() returns trigger language plpgsql as $$ begin raise exception 'link refused'; end $$`.execute(
      t.db,
    );
    await sql`create trigger refuse_link before insert on hosted_sessions for each row execute function refuse_link()`.execute(t.db);
    expect((await signup()).statusCode).toBe(500);
    const entities = () => t.db.selectFrom('legal_entities').select('id').where('external_company_id', '=', 'atomic-signup-1').execute();
    expect(await entities()).toEqual([]);
    expect(await t.db.selectFrom('hosted_sessions').select('id').execute()).toEqual([]);

    await sql`drop trigger refuse_link on hosted_sessions`.execute(t.db);
    const retried = await signup();
    expect(retried.statusCode).toBe(200);
    const { legal_entity_id } = json<{ legal_entity_id: string }>(retried);
    expect(await entities()).toEqual([{ id: legal_entity_id }]);
    expect(await t.db.selectFrom('hosted_sessions').select('legal_entity_id').execute()).toEqual([{ legal_entity_id }]);
  });
});
