import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer, json, signupWithToken } from './app.js';

interface QuestionTask {
  id: string;
  status: string;
  source: { type: string; answer_type?: string };
}

/**
 * What the calendar-*.test.ts files share: a Delaware C corporation with employees and offices in Delaware, California
 * and New York, every question answered (registration and start dates of 2026-10-01, 3 employees), so that it has
 * a dozen dated tasks (yearly filings, "within 90 days of registration") beside undated ones.
 */
export async function setupDatedEntity(app: FastifyInstance, apiKey: string, businessName = 'Harbor Labs') {
  const { entityId, token } = await signupWithToken(app, apiKey, {
    business_name: businessName,
    entity_type: 'c_corp',
    tax_class: 'corp',
    incorporation_region: 'DE',
    incorporated_date: '2020-03-10',
  });
  const headers = bearer(token);
  for (const code of ['DE', 'CA', 'NY']) {
    const res = await app.inject({
      method: 'PUT',
      url: `/locations/${code}`,
      headers,
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  // An answer can raise further questions, or settle others (a business that sells goods needs no answer about
  // digital products for a permit it already gets: that question leaves the list): answer one at a time, from a
  // fresh list, until none is left open.
  for (let round = 0; round < 100; round++) {
    const question = json<QuestionTask[]>(await app.inject({ url: '/v2/tasks?page_size=500&type=question', headers })).find(
      (x) => x.status === 'todo',
    );
    if (!question) break;
    const answer = question.source.answer_type === 'date' ? '2026-10-01' : question.source.answer_type === 'number' ? 3 : true;
    const res = await app.inject({ method: 'PATCH', url: `/v2/tasks/questions/${question.id}`, headers, payload: { answer } });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { entityId, token, headers };
}
