import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/catalog/catalog.js';
import { bearer, createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';

// Issue 24 through the API: the questions of the whole business (asked once, in the anchor region) and a state's
// sales (economic nexus, asked last), on a small fixture catalog (test/fixtures/catalog-families): Colorado's sales
// tax permit for goods or digital products with premises, employees or $100,000 / 200 sales; Oregon's retirement
// program for 5+ employees without a plan; the federal 1099-NEC for a business that pays contractors.
const catalog = loadCatalog(fileURLToPath(new URL('./fixtures/catalog-families', import.meta.url)));

type Source = {
  type: string;
  requirement_id?: string;
  question_id?: string;
  regions?: { code?: string; name: string }[];
  region?: { name: string };
  criteria_met?: { type: string; reason: string }[];
};
type PlatformTask = { id: string; title: string; status: string; source: Source };

describe('questions of the business and economic nexus, through the API', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { catalog });
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  /** An Oregon LLC (Oregon holds its federal tasks) with a Colorado location configured so. */
  async function entityIn(colorado: { has_employees: boolean; has_physical_location: boolean }) {
    const { token } = await signupWithToken(t.app, apiKey, {
      entity_type: 'llc',
      tax_class: 'partnership',
      incorporation_region: 'OR',
      incorporated_date: '2021-05-20',
    });
    const put = await t.app.inject({ method: 'PUT', url: '/locations/CO', headers: bearer(token), payload: { config: colorado } });
    expect(put.statusCode, put.body).toBe(200);
    const tasks = async () => json<PlatformTask[]>(await t.app.inject({ url: '/v2/tasks?limit=100', headers: bearer(token) }));
    const answer = async (questionId: string, value: unknown, region?: string) => {
      const question = (await tasks()).find(
        (x) => x.source.question_id === questionId && (!region || x.source.regions?.[0]?.name === region),
      );
      expect(question, `question ${questionId}`).toBeDefined();
      return t.app.inject({
        method: 'PATCH',
        url: `/v2/tasks/questions/${question!.id}`,
        headers: bearer(token),
        payload: { answer: value },
      });
    };
    return { token, tasks, answer };
  }
  const asked = (tasks: PlatformTask[], id: string) => tasks.filter((x) => x.source.question_id === id && x.status !== 'done');
  const planned = (tasks: PlatformTask[], id: string) => tasks.filter((x) => x.source.requirement_id === id);

  it('asks what the business sells once, in the anchor region, titled without a state; a yes plans the permit', async () => {
    const { tasks, answer } = await entityIn({ has_employees: false, has_physical_location: true });
    const goods = asked(await tasks(), 'sells-tangible-goods');
    expect(goods.map((x) => [x.title, x.source.regions![0]!.name])).toEqual([
      ['Does the business sell physical products (tangible goods)?', 'Oregon'],
    ]);
    expect(planned(await tasks(), 'co-sales-tax-permit')).toEqual([]);
    // With premises in Colorado, its sales there are never asked.
    expect(asked(await tasks(), 'annual-sales')).toEqual([]);

    const res = await answer('sells-tangible-goods', true);
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ unlocked_tasks: PlatformTask[] }>(res).unlocked_tasks.map((x) => x.source.requirement_id)).toContain(
      'co-sales-tax-permit',
    );
    const permit = planned(await tasks(), 'co-sales-tax-permit');
    expect(permit.map((x) => x.source.region!.name)).toEqual(['Colorado']);
    expect(permit[0]!.source.criteria_met!.map((c) => [c.type, c.reason])).toEqual([
      ['sales-tax-nexus', 'The business sells physical products (tangible goods)'],
      ['has-physical-location', 'The business has a physical location in Colorado'],
    ]);
  });

  it('a remote seller: its Colorado sales are asked once it is known to sell goods, and decide the permit', async () => {
    const { tasks, answer } = await entityIn({ has_employees: false, has_physical_location: false });
    expect(asked(await tasks(), 'annual-sales')).toEqual([]);
    expect((await answer('sells-tangible-goods', true)).statusCode).toBe(200);
    const sales = asked(await tasks(), 'annual-sales');
    expect(sales.map((x) => [x.title, x.source.regions![0]!.name])).toEqual([
      [
        'How much did the business sell to customers in Colorado in the current or the previous calendar year, whichever is more (in US dollars)?',
        'Colorado',
      ],
    ]);

    // Sales are whole dollars from 0 to a trillion: anything else is a 422 (the range named when a number is out of it).
    for (const bad of [-1, 2_000_000_000_000]) {
      const res = await answer('annual-sales', bad);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.body).toContain('this question takes a whole number from 0 to 1000000000000');
    }
    for (const bad of [12.5, 'lots']) expect((await answer('annual-sales', bad)).statusCode).toBe(422);
    expect(planned(await tasks(), 'co-sales-tax-permit')).toEqual([]);

    const over = await answer('annual-sales', 40_000_000);
    expect(over.statusCode, over.body).toBe(200);
    expect(json<{ unlocked_tasks: PlatformTask[] }>(over).unlocked_tasks.map((x) => x.source.requirement_id)).toContain(
      'co-sales-tax-permit',
    );
  });

  it('a consulting firm (no goods, no digital products): no permit and no sales question', async () => {
    const { tasks, answer } = await entityIn({ has_employees: false, has_physical_location: true });
    expect((await answer('sells-tangible-goods', false)).statusCode).toBe(200);
    expect(asked(await tasks(), 'sells-digital-products')).toHaveLength(1);
    expect((await answer('sells-digital-products', false)).statusCode).toBe(200);
    const all = await tasks();
    expect(planned(all, 'co-sales-tax-permit')).toEqual([]);
    expect(asked(all, 'annual-sales')).toEqual([]);
  });

  it('contractors: a yes plans the federal 1099-NEC in the anchor region; a boolean question refuses a number', async () => {
    const { tasks, answer } = await entityIn({ has_employees: false, has_physical_location: true });
    expect(asked(await tasks(), 'pays-contractors')).toHaveLength(1);
    expect((await answer('pays-contractors', 3)).statusCode).toBe(422);
    expect((await answer('pays-contractors', true)).statusCode).toBe(200);
    expect(planned(await tasks(), 'us-irs-form-1099-nec').map((x) => x.source.region!.name)).toEqual(['Oregon']);
  });
});
