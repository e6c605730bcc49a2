import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { bearer, json } from './app.js';

/** The Idempotency-Key header, and nothing else besides the credential. */
export const withKey = (authorization: Record<string, string>, key: string) => ({ ...authorization, 'idempotency-key': key });

/** How many legal entities the platform has (a replay must not add one). */
export async function entityCount(db: Db, platformId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from legal_entities where platform_id = ${platformId}`.execute(db);
  return rows[0]!.n;
}

/** The stored keys, as the database holds them. */
export async function keyRows(db: Db, key?: string) {
  const { rows } = await sql<{ scope: string; key: string; state: string; response_status: number | null; response_body: Buffer | null }>`
    select scope, key, state, response_status, response_body from idempotency_keys where ${key === undefined ? sql`true` : sql`key = ${key}`} order by created_at`.execute(
    db,
  );
  return rows;
}

/** A requirement task of the entity (a Delaware corporation has some from its signup alone), reopened if done. */
export async function todoRequirement(app: FastifyInstance, token: string, skip: string[] = []): Promise<string> {
  const tasks = json<{ id: string; status: string; definition: { type: string } }[]>(
    await app.inject({ url: '/tasks', headers: bearer(token) }),
  );
  const task = tasks.find((x) => x.definition.type === 'requirement' && !skip.includes(x.id));
  if (!task) throw new Error('no requirement task');
  if (task.status !== 'todo') {
    const reopened = await app.inject({
      method: 'PATCH',
      url: `/v2/tasks/${task.id}`,
      headers: bearer(token),
      payload: { status: 'todo' },
    });
    if (reopened.statusCode !== 200) throw new Error(`could not reopen ${task.id}: ${reopened.body}`);
  }
  return task.id;
}
