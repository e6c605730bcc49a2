import type { EventData } from '../../src/modules/events/contract.js';
import type { TestApp } from './app.js';

export interface RecordedEvent {
  id: string;
  type: string;
  platform_id: string;
  legal_entity_id: string | null;
  data: EventData & { object: Record<string, unknown> };
}

/**
 * The outbox rows of one legal entity in the order readers see them (xid, seq), read from the test database:
 * what the emitters committed, whatever reads them later (GET /v2/events, webhooks).
 */
export async function eventsOf(t: Pick<TestApp, 'db'>, legalEntityId: string, types?: readonly string[]): Promise<RecordedEvent[]> {
  let query = t.db
    .selectFrom('events')
    .select(['id', 'type', 'platform_id', 'legal_entity_id', 'data'])
    .where('legal_entity_id', '=', legalEntityId);
  if (types) query = query.where('type', 'in', [...types]);
  const rows = await query.orderBy('xid').orderBy('seq').execute();
  return rows as unknown as RecordedEvent[];
}

/** Every event of the entity as one string: what must never contain a secret. */
export const eventsText = async (t: Pick<TestApp, 'db'>, legalEntityId: string) => JSON.stringify(await eventsOf(t, legalEntityId));
