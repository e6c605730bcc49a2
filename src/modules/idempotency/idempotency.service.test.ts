import { describe, expect, it } from 'vitest';
import { createVault, type SealedBytes } from '../../crypto/vault.js';
import { canonicalJson, fingerprintOf, isReplayable, replayedHeaders, type RequestIdentity } from './idempotency.fns.js';
import type { IdempotencyRepository, KeyClaim, KeyRecord } from './idempotency.repository.js';
import { createIdempotencyService } from './idempotency.service.js';

// The rules over an in-memory store: what makes two requests the same, what is kept, what a second request with
// the key gets. The SQL (claims, takeovers, expiry) is covered by test/idempotency-*.test.ts.

interface Row {
  claimId: string;
  fingerprint: string;
  lockedUntil: number;
  response: KeyRecord['response'];
}

function memoryRepository(now: () => number) {
  const rows = new Map<string, Row>();
  const id = (scope: string, key: string) => `${scope}\n${key}`;
  const repository: Pick<IdempotencyRepository, 'claim' | 'find' | 'complete' | 'release' | 'prune'> = {
    async claim(claim, lockSeconds) {
      const row = rows.get(id(claim.scope, claim.key));
      if (row && !(row.response === null && row.lockedUntil <= now() && row.fingerprint === claim.fingerprint)) return false;
      rows.set(id(claim.scope, claim.key), {
        claimId: claim.claimId,
        fingerprint: claim.fingerprint,
        lockedUntil: now() + lockSeconds * 1000,
        response: null,
      });
      return true;
    },
    async find(scope, key) {
      const row = rows.get(id(scope, key));
      return (
        row && {
          fingerprint: row.fingerprint,
          state: row.response ? 'complete' : 'in_flight',
          lockedForSeconds: (row.lockedUntil - now()) / 1000,
          response: row.response,
        }
      );
    },
    async complete(claim, status, headers, sealed) {
      const row = rows.get(id(claim.scope, claim.key));
      if (row?.claimId !== claim.claimId) return false;
      row.response = { status, headers, sealed };
      return true;
    },
    async release(claim) {
      if (rows.get(id(claim.scope, claim.key))?.claimId === claim.claimId) rows.delete(id(claim.scope, claim.key));
    },
    prune: async () => 0,
  };
  return { repository, rows };
}

function setup() {
  let clock = 1_000_000;
  const { repository, rows } = memoryRepository(() => clock);
  const vault = createVault([Buffer.alloc(32, 3)]);
  const service = createIdempotencyService({ repository, vault, retentionHours: 24, lockSeconds: 60 });
  return {
    service,
    rows,
    vault,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from(JSON.stringify(body)),
});

describe('fingerprints', () => {
  const base: RequestIdentity = {
    method: 'POST',
    route: '/v2/signup',
    params: {},
    query: {},
    body: { a: 1, b: { c: [1, 2], d: 'x' } },
    legalEntityId: null,
  };

  it('ignore member order and members left undefined, and nothing else', () => {
    expect(fingerprintOf({ ...base, body: { b: { d: 'x', c: [1, 2] }, a: 1, e: undefined } })).toBe(fingerprintOf(base));
    for (const changed of [
      { body: { a: 1, b: { c: [2, 1], d: 'x' } } },
      { body: { a: '1', b: { c: [1, 2], d: 'x' } } },
      { method: 'PATCH' },
      { route: '/v2/signup/session' },
      { query: { verbose: true } },
      { params: { task_id: 'tsk_1' } },
      { legalEntityId: 'le_1' },
      { body: null },
    ])
      expect(fingerprintOf({ ...base, ...changed })).not.toBe(fingerprintOf(base));
  });

  it('hash raw bodies as bytes, distinct from the same text as JSON', () => {
    const pdf = Buffer.from('%PDF-1.4 ... %%EOF');
    expect(fingerprintOf({ ...base, body: pdf })).toBe(fingerprintOf({ ...base, body: Buffer.from(pdf) }));
    expect(fingerprintOf({ ...base, body: pdf })).not.toBe(fingerprintOf({ ...base, body: pdf.toString() }));
  });

  it('canonical JSON sorts keys at every depth', () => {
    expect(canonicalJson({ z: [{ b: 1, a: 2 }], a: null })).toBe('{"a":null,"z":[{"a":2,"b":1}]}');
  });
});

describe('what is kept', () => {
  it('2xx and 4xx answers of the operation, except 409 and 429', () => {
    expect([200, 201, 204, 400, 404, 422].every(isReplayable)).toBe(true);
    expect([409, 429, 500, 502, 503, 301].some(isReplayable)).toBe(false);
  });

  it('only the headers that describe the body', () => {
    expect(
      replayedHeaders({
        'content-type': 'application/json',
        location: '/x',
        'x-total': 3,
        'x-request-id': 'r',
        'set-cookie': 'a=b',
        'retry-after': '5',
      }),
    ).toEqual({ 'content-type': 'application/json', location: '/x', 'x-total': '3' });
  });
});

describe('a key through its life', () => {
  it('runs once, then replays the stored answer; another request with the key is a mismatch', async () => {
    const { service } = setup();
    const first = await service.begin('platform:p1', 'k1', 'f1');
    expect(first.kind).toBe('run');
    expect(await service.finish((first as { claim: KeyClaim }).claim, json(201, { id: 'x' }))).toBe('stored');
    const again = await service.begin('platform:p1', 'k1', 'f1');
    expect(again).toEqual({ kind: 'replay', response: json(201, { id: 'x' }) });
    expect(await service.begin('platform:p1', 'k1', 'f2')).toEqual({ kind: 'mismatch' });
    expect((await service.begin('platform:p2', 'k1', 'f2')).kind).toBe('run');
  });

  it('while the first runs, the second is told to retry; after the lock lapses, the same request takes over', async () => {
    const { service, advance } = setup();
    const first = await service.begin('s', 'k', 'f');
    expect(await service.begin('s', 'k', 'f')).toEqual({ kind: 'in_flight', retryAfterSeconds: 1 });
    advance(61_000);
    expect(await service.begin('s', 'k', 'other')).toEqual({ kind: 'mismatch' });
    const takeover = await service.begin('s', 'k', 'f');
    expect(takeover.kind).toBe('run');
    // The first request's late answer is not stored over the new claim.
    expect(await service.finish((first as { claim: KeyClaim }).claim, json(200, {}))).toBe('lost');
  });

  it('lets the key go after a 409, a 5xx or a body it cannot keep, so a retry runs', async () => {
    const { service, rows } = setup();
    for (const response of [json(409, {}), json(429, {}), json(500, {}), json(503, {}), null]) {
      const run = await service.begin('s', 'k', 'f');
      expect(run.kind).toBe('run');
      expect(await service.finish((run as { claim: KeyClaim }).claim, response)).toBe('released');
      expect(rows.size).toBe(0);
    }
  });

  it('keeps the body sealed and bound to its key', async () => {
    const { service, rows, vault } = setup();
    const run = await service.begin('s', 'k', 'f');
    await service.finish((run as { claim: KeyClaim }).claim, json(200, { access_token: 'secret-token' }));
    const sealed = rows.get('s\nk')!.response!.sealed as SealedBytes;
    expect(sealed.ciphertext.toString()).not.toContain('secret-token');
    rows.set('s\nother', { ...rows.get('s\nk')! });
    await expect(service.begin('s', 'other', 'f')).rejects.toThrow(/failed authentication/);
    expect(vault.currentKeyId()).toBe(sealed.keyId);
  });
});
