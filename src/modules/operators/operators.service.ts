import type { Db } from '../../db/database.js';
import { NotFoundError, UnauthorizedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';

/** The operator (a person or system running Statehouse) an operator key authenticates. */
export interface OperatorPrincipal {
  keyId: string;
  name: string;
}

/** Operator keys look different from platform keys, so one can never be mistaken for the other. */
export const OPERATOR_KEY_PREFIX = 'sh_op_';
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Operator keys authenticate the operator API (/operator/v1/...): recording agency accounts, logins and
 * mail for any legal entity. They are separate from platform API keys and stored as SHA-256 hashes.
 */
export function createOperatorsService(db: Db) {
  return {
    async createKey(name: string) {
      const trimmed = name.trim();
      if (trimmed.length === 0 || trimmed.length > 200) throw new Error('An operator key name must have 1 to 200 characters');
      const key = newSecret(OPERATOR_KEY_PREFIX);
      const hint = `${key.slice(0, OPERATOR_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
      const row = await db.insertInto('operator_keys').values({ id: newId('opk'), name: trimmed, key_hash: hashSecret(key), key_hint: hint })
        .returning(['id', 'name', 'key_hint', 'created_at']).executeTakeFirstOrThrow();
      return { ...row, key };
    },

    listKeys: () => db.selectFrom('operator_keys').select(['id', 'name', 'key_hint', 'created_at', 'last_used_at', 'revoked_at']).orderBy('created_at').execute(),

    async revokeKey(keyId: string) {
      const row = await db.updateTable('operator_keys').set({ revoked_at: new Date() }).where('id', '=', keyId).where('revoked_at', 'is', null)
        .returning(['id']).executeTakeFirst();
      if (!row) {
        const known = await db.selectFrom('operator_keys').select('id').where('id', '=', keyId).executeTakeFirst();
        if (!known) throw new NotFoundError(`Operator key '${keyId}' not found`);
      }
    },

    /** `Authorization: Bearer sh_op_…`; every failure is the same 401 so keys cannot be probed. */
    async authenticate(header: string | undefined): Promise<OperatorPrincipal> {
      const key = header?.match(BEARER)?.[1];
      if (!key || !key.startsWith(OPERATOR_KEY_PREFIX)) throw new UnauthorizedError('Missing or invalid operator key');
      const row = await db.updateTable('operator_keys').set({ last_used_at: new Date() })
        .where('key_hash', '=', hashSecret(key)).where('revoked_at', 'is', null)
        .returning(['id', 'name']).executeTakeFirst();
      if (!row) throw new UnauthorizedError('Missing or invalid operator key');
      return { keyId: row.id, name: row.name };
    },
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
