import { newId } from '../../lib/ids.js';
import type { Vault } from '../../crypto/vault.js';
import type { IdempotencyRepository, KeyClaim } from './idempotency.repository.js';
import { isReplayable } from './idempotency.fns.js';

/** A response as the client received it: what a replay sends again. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a request carrying a key does next. */
export type KeyOutcome =
  | { kind: 'run'; claim: KeyClaim }
  | { kind: 'replay'; response: StoredResponse }
  /** The key was used with another request. */
  | { kind: 'mismatch' }
  /** Another request holds the key and is still running. */
  | { kind: 'in_flight'; retryAfterSeconds: number };

export interface IdempotencyServiceDeps {
  repository: Pick<IdempotencyRepository, 'claim' | 'find' | 'complete' | 'release' | 'prune'>;
  vault: Pick<Vault, 'sealBytes' | 'openBytes'>;
  /** How long a key and its response are kept (IDEMPOTENCY_RETENTION_HOURS). */
  retentionHours: number;
  /** How long a claim holds the key before another request may take it over (its process may have died). */
  lockSeconds: number;
}

/** Stored bodies are bound to their key: a body copied onto another key's row does not open there. */
const bodyAad = (scope: string, key: string) => Buffer.from(`statehouse:idempotency-response:v1\n${scope}\n${key}`);

/** Claims released between our insert and our read leave a free key: claim again, a few times at most. */
const CLAIM_ATTEMPTS = 3;

/** The Idempotency-Key rules (docs/idempotency.md): one claim before the operation, one write after it. */
export function createIdempotencyService(deps: IdempotencyServiceDeps) {
  const { repository, vault, retentionHours, lockSeconds } = deps;

  return {
    /** Claims the key for a request with this fingerprint, or says why it must not run. */
    async begin(scope: string, key: string, fingerprint: string): Promise<KeyOutcome> {
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
        const claim: KeyClaim = { scope, key, fingerprint, claimId: newId('idc') };
        if (await repository.claim(claim, lockSeconds, retentionHours)) return { kind: 'run', claim };
        const found = await repository.find(scope, key);
        if (!found) continue;
        if (found.fingerprint !== fingerprint) return { kind: 'mismatch' };
        if (found.response) {
          const body = vault.openBytes(found.response.sealed, bodyAad(scope, key));
          return { kind: 'replay', response: { status: found.response.status, headers: found.response.headers, body } };
        }
        // In flight past its lock was taken over by the claim above, unless it lapsed between the two queries.
        if (found.lockedForSeconds <= 0) continue;
        return { kind: 'in_flight', retryAfterSeconds: 1 };
      }
      return { kind: 'in_flight', retryAfterSeconds: 1 };
    },

    /**
     * After the operation: keeps a replayable response, or lets the key go so that a retry runs it again.
     * 'lost': the request ran past its lock and another took the key over (nothing stored).
     */
    async finish(claim: KeyClaim, response: StoredResponse | null): Promise<'stored' | 'released' | 'lost'> {
      if (!response || !isReplayable(response.status)) {
        await repository.release(claim);
        return 'released';
      }
      const sealed = vault.sealBytes(response.body, bodyAad(claim.scope, claim.key));
      return (await repository.complete(claim, response.status, response.headers, sealed)) ? 'stored' : 'lost';
    },

    /** Forgets keys older than the retention (the daily job). */
    prune: () => repository.prune(retentionHours),
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
