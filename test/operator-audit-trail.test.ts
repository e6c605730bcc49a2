import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/lib/errors.js';
import { createAuditService } from '../src/modules/audit/audit.service.js';
import { createTestApp, type TestApp } from './helpers/app.js';

describe('operator audit trail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const alice = { keyId: 'opk_alice', name: 'Alice' };
  const bob = { keyId: 'opk_bob', name: 'Bob' };

  it("records inside the action's transaction: a rolled-back action leaves no audit line", async () => {
    const audit = createAuditService({ db: t.db });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await audit.record(trx, {
          operator: alice,
          action: 'automation.claim',
          subjectType: 'automation',
          subjectId: 'aut_rolled_back',
          legalEntityId: null,
        });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await audit.list({ subjectId: 'aut_rolled_back', limit: 10 })).toEqual([]);
  });

  it('lists newest first, filters and pages with `before`', async () => {
    const audit = createAuditService({ db: t.db });
    for (const [i, operator] of [alice, bob, alice].entries()) {
      await t.db.transaction().execute((trx) =>
        audit.record(trx, {
          operator,
          action: 'login.reveal',
          subjectType: 'login',
          subjectId: `lgn_${i}`,
          legalEntityId: 'le_1',
          details: { field: 'password' },
        }),
      );
    }
    const all = await audit.list({ legalEntityId: 'le_1', limit: 10 });
    expect(all.map((e) => e.subject.id)).toEqual(['lgn_2', 'lgn_1', 'lgn_0']);
    expect(all[0]).toMatchObject({
      operator: { key_id: 'opk_alice', name: 'Alice' },
      action: 'login.reveal',
      details: { field: 'password' },
    });
    expect((await audit.list({ operatorKeyId: 'opk_bob', limit: 10 })).map((e) => e.subject.id)).toEqual(['lgn_1']);
    const first = await audit.list({ legalEntityId: 'le_1', limit: 2 });
    const next = await audit.list({ legalEntityId: 'le_1', limit: 2, before: first.at(-1)!.id });
    expect([...first, ...next].map((e) => e.subject.id)).toEqual(['lgn_2', 'lgn_1', 'lgn_0']);
    await expect(audit.list({ limit: 2, before: 'aud_unknown' })).rejects.toBeInstanceOf(NotFoundError);
  });
});
