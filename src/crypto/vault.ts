import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/** What a login keeps secret. Never logged, never returned by the API. */
export interface LoginSecrets {
  username: string;
  password: string;
  security_answers?: { question: string; answer: string }[];
  totp_seed?: string;
}

/**
 * One encrypted secret as stored beside its login (see the account_logins columns). `aadVersion` says what
 * the ciphertext is bound to: 1 = only "a login secret" (before 2026-11-23), 2 = this very login (its id).
 */
export interface SealedSecret {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  keyId: string;
  aadVersion: LoginAadVersion;
}

export type LoginAadVersion = 1 | 2;
/** The binding every new seal uses; `statehouse logins reencrypt` upgrades older rows to it. */
export const CURRENT_LOGIN_AAD_VERSION: LoginAadVersion = 2;

/** How a sealed secret is stored: the `account_logins` columns. */
export interface SealedSecretColumns {
  secret_ciphertext: Buffer;
  secret_iv: Buffer;
  secret_tag: Buffer;
  key_id: string;
  secret_aad_version: number;
}

export const sealedFromColumns = (row: SealedSecretColumns): SealedSecret => ({
  ciphertext: row.secret_ciphertext,
  iv: row.secret_iv,
  tag: row.secret_tag,
  keyId: row.key_id,
  aadVersion: row.secret_aad_version === 1 ? 1 : 2,
});

export const columnsFromSealed = (secret: SealedSecret): SealedSecretColumns => ({
  secret_ciphertext: secret.ciphertext,
  secret_iv: secret.iv,
  secret_tag: secret.tag,
  key_id: secret.keyId,
  secret_aad_version: secret.aadVersion,
});

export class VaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VaultError';
  }
}

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12; // 96 bits, GCM's natural nonce size; random per secret
export const VAULT_KEY_FILE = 'vault.key';

/** A key's public name: the first 8 hex digits of its SHA-256. Stored with each secret so keys can rotate. */
export const vaultKeyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * Associated data binds a ciphertext to what it is. Version 1 (legacy) named only the purpose, so a sealed
 * secret copied onto another login's row opened there; version 2 also names the login, so it does not.
 */
export function loginSecretAad(version: LoginAadVersion, loginId: string): Buffer {
  return Buffer.from(version === 1 ? 'statehouse:login-secret:v1' : `statehouse:login-secret:v2\n${loginId}`);
}

/** One sealed value of any kind: the caller names what it is bound to (its associated data). */
export interface SealedBytes {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  keyId: string;
}

/**
 * AES-256-GCM with a random 96-bit IV per seal. `keys[0]` encrypts; any key whose id matches decrypts.
 * Keys may be given lazily (loaded on first use), so an app that never touches a secret never reads a key file.
 */
export function createVault(keys: Buffer[] | (() => Buffer[])) {
  let loaded: { current: Buffer; currentId: string; byId: Map<string, Buffer> } | null = null;
  const resolve = () => {
    if (loaded) return loaded;
    const list = typeof keys === 'function' ? keys() : keys;
    if (list.length === 0) throw new VaultError('the vault has no key');
    for (const key of list) if (key.length !== KEY_BYTES) throw new VaultError(`vault keys must be ${KEY_BYTES} bytes`);
    loaded = { current: list[0]!, currentId: vaultKeyId(list[0]!), byId: new Map(list.map((k) => [vaultKeyId(k), k])) };
    return loaded;
  };

  /** Encrypts bytes under the current key, bound to `aad` (which must be given again to open them). */
  function sealBytes(plaintext: Buffer, aad: Buffer): SealedBytes {
    const { current, currentId } = resolve();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, current, iv);
    cipher.setAAD(aad);
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { ciphertext, iv, tag: cipher.getAuthTag(), keyId: currentId };
  }

  function openBytes(sealed: SealedBytes, aad: Buffer): Buffer {
    const key = resolve().byId.get(sealed.keyId);
    if (!key)
      throw new VaultError(`no configured vault key has id ${sealed.keyId}; add it to STATEHOUSE_VAULT_KEY (after the current key)`);
    try {
      const decipher = createDecipheriv(ALGORITHM, key, sealed.iv);
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.tag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
    } catch {
      // Never echo the ciphertext or what it decrypted to.
      throw new VaultError(`a secret sealed with key ${sealed.keyId} failed authentication (altered, or not stored where it was sealed)`);
    }
  }

  return {
    sealBytes,
    openBytes,

    /** The id of the key new secrets are encrypted with. */
    currentKeyId: () => resolve().currentId,

    /** Seals a login's secrets, bound to that login's id. */
    seal(secret: LoginSecrets, loginId: string): SealedSecret {
      const aadVersion = CURRENT_LOGIN_AAD_VERSION;
      return { ...sealBytes(Buffer.from(JSON.stringify(secret), 'utf8'), loginSecretAad(aadVersion, loginId)), aadVersion };
    },

    /** Opens a login's secrets; fails if they were sealed for another login (or altered). */
    open(sealed: SealedSecret, loginId: string): LoginSecrets {
      return JSON.parse(openBytes(sealed, loginSecretAad(sealed.aadVersion, loginId)).toString('utf8')) as LoginSecrets;
    },
  };
}

export type Vault = ReturnType<typeof createVault>;

/**
 * The vault keys of this installation: STATEHOUSE_VAULT_KEY when set, else `vault.key` in the data
 * directory, created (mode 0600, 32 random bytes in base64) on first use.
 */
export function loadVaultKeys(config: Pick<Config, 'vaultKeys' | 'dataDir'>): Buffer[] {
  if (config.vaultKeys && config.vaultKeys.length > 0) return config.vaultKeys;
  const file = path.join(config.dataDir, VAULT_KEY_FILE);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    // 'wx': two processes starting at once cannot both create a key; the loser reads the winner's.
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new VaultError(`${file} must hold base64 of ${KEY_BYTES} bytes`);
  return [key];
}
