import type { Db } from '../../db/database.js';
import { InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { checkDescription, checkEventTypes, checkUrl, type UrlRules } from './endpoint.input.js';
import { generateSigningSecret, sealSecret, type SecretSealer } from './webhook-secrets.js';
import type { EndpointChanges, EndpointRow, WebhooksRepository } from './webhooks.repository.js';

const ENDPOINT_ID_PREFIX = 'we';
const SECRET_ID_PREFIX = 'whs';
/** How long a rotated-out secret keeps signing unless the caller says otherwise. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 86_400;
export const MAX_ROTATION_OVERLAP_SECONDS = 30 * 86_400;

export interface EndpointInput {
  url: string;
  event_types?: string[] | null;
  description?: string | null;
}

export interface EndpointPatch {
  url?: string;
  event_types?: string[] | null;
  description?: string | null;
  status?: 'enabled' | 'disabled';
}

/** Whose endpoint: a platform's (its API key), or any (operators, who give a reason for what they do). */
export type EndpointOwner = { platformId: string } | { operator: true };

export interface WebhookEndpointsDeps {
  db: Db;
  vault: SecretSealer;
  urlRules: UrlRules;
  repositoryFor: (db: Db) => WebhooksRepository;
  now: () => Date;
}

/** An endpoint with the signing secret that was just made (the only time it is shown). */
export interface EndpointWithSecret {
  endpoint: EndpointRow;
  secret: string;
}

/** Endpoint management for platforms and operators: the rules, the transactions, the secrets. */
export function createWebhookEndpointsService(deps: WebhookEndpointsDeps) {
  const { db, repositoryFor } = deps;

  /** The endpoint under its row lock, or a 404 that does not say whether another platform has it. */
  async function lockOwned(trx: Db, owner: EndpointOwner, id: string): Promise<EndpointRow> {
    const row = await repositoryFor(trx).findForUpdate(id);
    if (!row || ('platformId' in owner && row.platform_id !== owner.platformId))
      throw new NotFoundError(`Webhook endpoint '${id}' not found`);
    return row;
  }

  async function addSecret(trx: Db, endpoint: Pick<EndpointRow, 'id' | 'platform_id'>): Promise<string> {
    const secret = generateSigningSecret();
    await repositoryFor(trx).insertSecret(
      sealSecret(deps.vault, secret, { id: newId(SECRET_ID_PREFIX), endpointId: endpoint.id, platformId: endpoint.platform_id }),
    );
    return secret;
  }

  /** Status changes: enabling forgets the failures that disabled it; disabling says who and why. */
  function statusChanges(row: EndpointRow, status: 'enabled' | 'disabled', reason: string): EndpointChanges {
    if (status === row.status) return {};
    if (status === 'enabled') return { status, disabled_at: null, disabled_reason: null, consecutive_failures: 0, failing_since: null };
    return { status, disabled_at: deps.now(), disabled_reason: reason };
  }

  return {
    async create(platformId: string, input: EndpointInput): Promise<EndpointWithSecret> {
      const url = await checkUrl(input.url, deps.urlRules);
      const eventTypes = checkEventTypes(input.event_types);
      const description = checkDescription(input.description);
      return db.transaction().execute(async (trx) => {
        const endpoint = await repositoryFor(trx).insertEndpoint({
          id: newId(ENDPOINT_ID_PREFIX),
          platform_id: platformId,
          url,
          event_types: eventTypes,
          description,
        });
        return { endpoint, secret: await addSecret(trx, endpoint) };
      });
    },

    list: (platformId: string) => repositoryFor(db).listForPlatform(platformId),

    /** Operators: every platform's endpoints, or one platform's. */
    listAll: (platformId?: string) => repositoryFor(db).listAll(platformId),

    async get(platformId: string, id: string): Promise<EndpointRow> {
      const row = await repositoryFor(db).findForPlatform(platformId, id);
      if (!row) throw new NotFoundError(`Webhook endpoint '${id}' not found`);
      return row;
    },

    /**
     * Absent fields stay as they are; `event_types: null` subscribes to every type, `description: null` clears it.
     * `inTransaction` runs beside the change (an operator's audit line).
     */
    async update(
      owner: EndpointOwner,
      id: string,
      patch: EndpointPatch,
      options: { disabledReason: string; inTransaction?: (trx: Db, before: EndpointRow, after: EndpointRow) => Promise<void> },
    ): Promise<EndpointRow> {
      const changes: EndpointChanges = {};
      if (patch.url !== undefined) changes.url = await checkUrl(patch.url, deps.urlRules);
      if (patch.event_types !== undefined) changes.event_types = checkEventTypes(patch.event_types);
      if (patch.description !== undefined) changes.description = checkDescription(patch.description);
      if (patch.status !== undefined && patch.status !== 'enabled' && patch.status !== 'disabled') {
        throw new InvalidInputError(['status'], "status must be 'enabled' or 'disabled'", patch.status);
      }
      return db.transaction().execute(async (trx) => {
        const before = await lockOwned(trx, owner, id);
        const all = { ...changes, ...(patch.status ? statusChanges(before, patch.status, options.disabledReason) : {}) };
        const after = Object.keys(all).length > 0 ? await repositoryFor(trx).update(id, all) : before;
        await options.inTransaction?.(trx, before, after);
        return after;
      });
    },

    /**
     * A new current secret; the previous one keeps signing (a second signature) for `expirePreviousAfterSeconds`,
     * so receivers can switch without missing a delivery. 0 ends it now.
     */
    async rotateSecret(
      platformId: string,
      id: string,
      expirePreviousAfterSeconds = DEFAULT_ROTATION_OVERLAP_SECONDS,
    ): Promise<EndpointWithSecret & { previousExpiresAt: Date }> {
      if (
        !Number.isInteger(expirePreviousAfterSeconds) ||
        expirePreviousAfterSeconds < 0 ||
        expirePreviousAfterSeconds > MAX_ROTATION_OVERLAP_SECONDS
      ) {
        throw new InvalidInputError(
          ['expire_previous_after_seconds'],
          `between 0 and ${MAX_ROTATION_OVERLAP_SECONDS} seconds`,
          expirePreviousAfterSeconds,
        );
      }
      return db.transaction().execute(async (trx) => {
        const endpoint = await lockOwned(trx, { platformId }, id);
        const repo = repositoryFor(trx);
        await repo.deleteExpiredSecrets(id);
        const previousExpiresAt = await repo.expireCurrentSecret(id, expirePreviousAfterSeconds);
        return { endpoint, secret: await addSecret(trx, endpoint), previousExpiresAt };
      });
    },

    /** Nothing is delivered to a deleted endpoint again (deliveries ask `target()` before each attempt). */
    async remove(owner: EndpointOwner, id: string, inTransaction?: (trx: Db, row: EndpointRow) => Promise<void>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await lockOwned(trx, owner, id);
        await repositoryFor(trx).markDeleted(id, deps.now());
        await inTransaction?.(trx, row);
      });
    },
  };
}

export type WebhookEndpointsService = ReturnType<typeof createWebhookEndpointsService>;
