import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { connectPayroll } from './helpers/hosted.js';

const PICTURES = [
  [
    { region: 'CA', employee_count: 5 },
    { region: 'NY', employee_count: 2 },
  ],
  [{ region: 'CA', employee_count: 7 }],
  [
    { region: 'TX', employee_count: 1 },
    { region: 'NY', employee_count: 4 },
  ],
];

describe('payroll reports at the same time', () => {
  let t: TestApp;
  let apiKey: string;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, entityId, token } = await createPlatformWithEntity(t));
    await connectPayroll(t.app, apiKey, entityId);
  });
  afterAll(async () => t.close());

  const report = (regions: unknown) =>
    t.app.inject({ method: 'PUT', url: '/v2/payroll/employees', headers: bearer(token), payload: { regions } });
  const counts = async () =>
    Object.fromEntries(
      json(await t.app.inject({ url: '/locations', headers: bearer(token) })).map(
        (l: { location: { code: string }; config: { employee_count: number } }) => [l.location.code, l.config.employee_count],
      ),
    );
  const requirementsIn = async (region: string): Promise<string[]> =>
    json(await t.app.inject({ url: `/v2/tasks?page_size=500&region=${region}`, headers: bearer(token) })).map(
      (task: { source: { requirement_id?: string } }) => task.source.requirement_id,
    );

  type Picture = Record<string, number>;
  const pictureOf = (body: { regions: { region: { code: string }; employee_count: number }[] }): Picture =>
    Object.fromEntries(body.regions.map((r) => [r.region.code, r.employee_count]));

  /**
   * The stored picture is the one of the report that committed last (the latest last_payroll_update; two in
   * the same millisecond: one of them), and it is a picture someone reported.
   */
  async function lastAcceptedPicture(results: { statusCode: number; json(): unknown }[]): Promise<Picture> {
    const accepted = results
      .filter((r) => r.statusCode === 200)
      .map((r) => r.json() as Parameters<typeof pictureOf>[0] & { last_payroll_update: string });
    const latest = Math.max(...accepted.map((a) => Date.parse(a.last_payroll_update)));
    const candidates = accepted.filter((a) => Date.parse(a.last_payroll_update) === latest).map(pictureOf);
    const stored = await counts();
    expect(candidates).toContainEqual(stored);
    const reported = PICTURES.map((p) => Object.fromEntries(p.map((item) => [item.region, item.employee_count])));
    expect(reported.some((picture) => Object.entries(stored).every(([code, count]) => (picture[code] ?? 0) === count))).toBe(true);
    return stored;
  }

  it('apply one after the other: the result is one whole picture, with the tasks that picture plans', async () => {
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => report(PICTURES[i % PICTURES.length])));
    expect(results.map((r) => r.statusCode)).toEqual(Array(9).fill(200));
    const expected = await lastAcceptedPicture(results);
    expect((await requirementsIn('NY')).includes('ny-employer-registration')).toBe((expected.NY ?? 0) > 0);
  });

  it('a disconnect racing reports: each request is a 200 or a 409, the stored picture is the last accepted one, then reports are 409', async () => {
    const results = await Promise.all([
      ...PICTURES.map((p) => report(p)),
      t.app.inject({ method: 'DELETE', url: '/v2/auth/payroll', headers: bearer(token) }),
      ...PICTURES.map((p) => report(p)),
    ]);
    for (const r of results) expect([200, 409], r.body).toContain(r.statusCode);
    const reports = [...results.slice(0, 3), ...results.slice(4)];
    if (reports.some((r) => r.statusCode === 200)) await lastAcceptedPicture(reports);
    const before = await counts();
    expect((await report(PICTURES[0])).statusCode).toBe(409);
    expect(await counts()).toEqual(before);
  });
});
