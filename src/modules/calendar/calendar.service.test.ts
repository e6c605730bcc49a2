import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import { hashSecret } from '../../lib/secrets.js';
import { createVault } from '../../crypto/vault.js';
import type { CalendarRepository, NewFeedRow } from './calendar.repository.js';
import { createCalendarService } from './calendar.service.js';

const catalog = loadCatalog();
const scope = { platformId: 'plt_1', legalEntityId: 'le_a' };
const CREATED = new Date('2026-11-24T03:00:00Z');

/** The service over an in-memory repository; `raceOnce`: the first insert loses to a concurrent one (nothing inserted). */
function harness(options: { raceOnce?: boolean } = {}) {
  const rows: (NewFeedRow & { created_at: Date; revoked_at: Date | null })[] = [];
  const lookups: Buffer[] = [];
  let race = options.raceOnce ?? false;
  const live = () => rows.find((r) => r.legal_entity_id === scope.legalEntityId && !r.revoked_at);
  const repository: Partial<CalendarRepository> = {
    findLive: async () => live(),
    insertLive: async (row) => {
      if (race) {
        // The concurrent request's row lands first.
        race = false;
        await service.subscribe(scope);
        return null;
      }
      if (live()) return null;
      rows.push({ ...row, created_at: CREATED, revoked_at: null });
      return { id: row.id, created_at: CREATED };
    },
    revokeLive: async () => {
      const row = live();
      if (row) row.revoked_at = new Date();
      return row ? 1 : 0;
    },
    feedByTokenHash: async (hash) => {
      lookups.push(hash);
      const row = rows.find((r) => r.token_hash.equals(hash) && !r.revoked_at);
      return row
        ? [
            {
              business_name: 'Harbor Labs',
              id: null,
              kind: null,
              definition_id: null,
              region_code: null,
              period_key: null,
              due_date: null,
              due_date_rule: null,
              due_date_exact: null,
              due_date_question: null,
              status: null,
              revision: null,
              updated_at: null,
            },
          ]
        : [];
    },
  };
  const service = createCalendarService({
    db: {} as Db,
    catalog,
    vault: createVault([Buffer.alloc(32, 3)]),
    publicBaseUrl: 'https://statehouse.example/',
    repositoryFor: () => repository as CalendarRepository,
  });
  return { service, rows, lookups };
}

const tokenOf = (url: string) => /\/calendar\/(.+)\.ics$/.exec(url)![1]!;

describe('calendar service', () => {
  it('stores the token hashed and sealed (bound to its row), and hands the same URL back', async () => {
    const { service, rows } = harness();
    const first = await service.subscribe(scope);
    expect(first.created).toBe(true);
    expect(first.url).toMatch(/^https:\/\/statehouse\.example\/calendar\/shcal_[\w-]{43}\.ics$/);
    const token = tokenOf(first.url);
    expect(rows[0]!.token_hash).toEqual(hashSecret(token));
    expect(rows[0]!.token_sealed.includes(Buffer.from(token))).toBe(false);
    expect(await service.subscribe(scope)).toEqual({ ...first, created: false });

    // A sealed token copied onto another row does not open there.
    rows[0]!.id = 'cal_other';
    await expect(service.current(scope)).rejects.toThrow(/failed authentication/);
  });

  it("a subscription that loses the race to a concurrent one answers that one's URL", async () => {
    const { service, rows } = harness({ raceOnce: true });
    const answer = await service.subscribe(scope);
    expect(rows).toHaveLength(1);
    expect(answer.created).toBe(false);
    expect(tokenOf(answer.url)).toBe(tokenOf((await service.current(scope))!.url));
  });

  it('a revoked token finds no feed; a token of another shape is not even looked up', async () => {
    const { service, lookups } = harness();
    const { url } = await service.subscribe(scope);
    expect(await service.feed(tokenOf(url))).toContain('X-WR-CALNAME:Harbor Labs — compliance');
    expect(await service.revoke(scope)).toBe(true);
    expect(await service.revoke(scope)).toBe(false);
    expect(await service.feed(tokenOf(url))).toBeNull();
    const before = lookups.length;
    for (const token of ['', 'shcal_short', `shcal_${'a'.repeat(44)}`, `other_${'a'.repeat(43)}`, `shcal_${'a'.repeat(42)}.`]) {
      expect(await service.feed(token)).toBeNull();
    }
    expect(lookups).toHaveLength(before);
  });
});
