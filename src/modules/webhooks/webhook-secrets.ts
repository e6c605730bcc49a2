import { randomBytes } from 'node:crypto';
import type { SealedBytes, Vault } from '../../crypto/vault.js';
import type { NewSecretRow, SecretRow } from './webhooks.repository.js';

/** What sealing needs of the vault (narrow, for the services and their tests). */
export type SecretSealer = Pick<Vault, 'sealBytes' | 'openBytes'>;

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: above the 24 the Standard Webhooks format asks for at least. */
const SECRET_BYTES = 32;

/** A new signing secret in the Standard Webhooks format: `whsec_` + base64 of random bytes. */
export const generateSigningSecret = () => `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/** The ciphertext names its own row: a sealed secret copied onto another row (or endpoint) does not open there. */
const secretAad = (secretId: string, endpointId: string) => Buffer.from(`statehouse:webhook-secret:v1\n${secretId}\n${endpointId}`);

export function sealSecret(vault: SecretSealer, secret: string, ids: { id: string; endpointId: string; platformId: string }): NewSecretRow {
  const sealed = vault.sealBytes(Buffer.from(secret, 'utf8'), secretAad(ids.id, ids.endpointId));
  return {
    id: ids.id,
    endpoint_id: ids.endpointId,
    platform_id: ids.platformId,
    sealed: sealed.ciphertext,
    iv: sealed.iv,
    tag: sealed.tag,
    key_id: sealed.keyId,
  };
}

export function openSecret(vault: SecretSealer, row: SecretRow): string {
  const sealed: SealedBytes = { ciphertext: row.sealed, iv: row.iv, tag: row.tag, keyId: row.key_id };
  return vault.openBytes(sealed, secretAad(row.id, row.endpoint_id)).toString('utf8');
}
