import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { Vault } from '../../crypto/vault.js';
import { CLAIM_LOCK_SECONDS } from './idempotency.fns.js';
import { idempotencyJobs } from './idempotency.jobs.js';
import { idempotencyPlugin, type IdempotencyHttpDeps } from './idempotency.plugin.js';
import { createIdempotencyRepository } from './idempotency.repository.js';
import { createIdempotencyService } from './idempotency.service.js';

export interface IdempotencyModuleDeps {
  db: Db;
  /** Stored responses are sealed with the vault key: they may hold access tokens, session links or revealed secrets. */
  vault: Pick<Vault, 'sealBytes' | 'openBytes'>;
  /** IDEMPOTENCY_RETENTION_HOURS. */
  retentionHours: number;
}

/** Idempotency-Key on the API's POST and PATCH operations (docs/idempotency.md). */
export function createIdempotencyModule(deps: IdempotencyModuleDeps) {
  const idempotency = createIdempotencyService({
    repository: createIdempotencyRepository(deps.db),
    vault: deps.vault,
    retentionHours: deps.retentionHours,
    lockSeconds: CLAIM_LOCK_SECONDS,
  });
  return {
    idempotency,
    jobs: idempotencyJobs(idempotency),
    /** The hooks (no routes): register before the routes, after the app's validation hook. */
    plugin: (http: IdempotencyHttpDeps): FastifyPluginAsync => idempotencyPlugin(idempotency, http),
  };
}

export type IdempotencyModule = ReturnType<typeof createIdempotencyModule>;
