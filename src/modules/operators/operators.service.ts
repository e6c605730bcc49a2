import type { Db } from '../../db/database.js';
import { NotFoundError, UnauthorizedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';
import type { OperatorPrincipal } from './contract.js';
import { createOperatorsRepository } from './operators.repository.js';

export type { OperatorPrincipal } from './contract.js';

/** Operator keys look different from platform keys, so one can never be mistaken for the other. */
export const OPERATOR_KEY_PREFIX = 'sh_op_';
const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** Far above a real key (sh_op_ + 43 characters); longer input is refused before it is hashed. */
const MAX_KEY_LENGTH = 200;

/**
 * Operator keys authenticate the operator API (/operator/v1/...): recording agency accounts, logins and
 * mail for any legal entity. They are separate from platform API keys and stored as SHA-256 hashes.
 */
export function createOperatorsService(db: Db) {
  const repo = createOperatorsRepository(db);

  async function authenticateKey(key: string | undefined): Promise<OperatorPrincipal> {
    if (!key || !key.startsWith(OPERATOR_KEY_PREFIX) || key.length > MAX_KEY_LENGTH)
      throw new UnauthorizedError('Missing or invalid operator key');
    const row = await repo.useKey(hashSecret(key));
    if (!row) throw new UnauthorizedError('Missing or invalid operator key');
    return { keyId: row.id, name: row.name };
  }

  return {
    async createKey(name: string) {
      const trimmed = name.trim();
      if (trimmed.length === 0 || trimmed.length > 200) throw new Error('An operator key name must have 1 to 200 characters');
      const key = newSecret(OPERATOR_KEY_PREFIX);
      const hint = `${key.slice(0, OPERATOR_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
      const row = await repo.insertKey({ id: newId('opk'), name: trimmed, key_hash: hashSecret(key), key_hint: hint });
      return { ...row, key };
    },

    listKeys: () => repo.findKeys(),

    /** The installation's platforms (id, name): operators see every tenant. */
    listPlatforms: () => repo.listPlatforms(),

    async revokeKey(keyId: string) {
      // Revoking a revoked key is fine; an unknown one is not.
      if (!(await repo.revokeKey(keyId)) && !(await repo.keyExists(keyId))) throw new NotFoundError(`Operator key '${keyId}' not found`);
    },

    /** `Authorization: Bearer sh_op_…`; every failure is the same 401 so keys cannot be probed. */
    authenticate: (header: string | undefined): Promise<OperatorPrincipal> => authenticateKey(header?.match(BEARER)?.[1]),

    /** The key itself (the back office's sign-in form); the same 401 as `authenticate` for every failure. */
    authenticateKey,

    /** The operator API's 404 for an unknown legal entity (any entity is in the operator's reach). */
    async requireLegalEntity(legalEntityId: string): Promise<void> {
      if (!(await repo.legalEntityExists(legalEntityId))) throw new NotFoundError(`Legal entity '${legalEntityId}' not found`);
    },
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
