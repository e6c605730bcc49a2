import { CURRENT_API_VERSION, isApiVersion, knownVersionsSentence } from '../../http/api-versions.js';
import { ForbiddenError, InvalidInputError, NotFoundError, UnauthorizedError } from '../../lib/errors.js';
import { ID_PREFIX, newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';
import type { PlatformsRepository } from './platforms.repository.js';
import type { PlatformPrincipal } from '../../http/principals.js';

const API_KEY_PREFIX = 'sh_key_';

export interface IssuedKey {
  id: string;
  /** The only time the secret is visible: it is stored as a SHA-256 hash. */
  key: string;
  hint: string;
}

export function createPlatformsService(repo: PlatformsRepository) {
  async function issueKey(platformId: string): Promise<IssuedKey> {
    const key = newSecret(API_KEY_PREFIX);
    const hint = `${key.slice(0, API_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
    const row = await repo.insertApiKey({
      id: newId(ID_PREFIX.apiKey),
      platform_id: platformId,
      key_hash: hashSecret(key),
      key_hint: hint,
    });
    // The first key pins the platform's default API version to the current one (docs/versions.md).
    await repo.pinApiVersionIfUnset(platformId, CURRENT_API_VERSION);
    return { id: row.id, key, hint };
  }

  async function requirePlatform(platformId: string) {
    const platform = await repo.findPlatform(platformId);
    if (!platform) throw new NotFoundError(`Platform '${platformId}' not found`);
    return platform;
  }

  return {
    async create(name: string) {
      const trimmed = name.trim();
      if (trimmed.length === 0 || trimmed.length > 200) throw new Error('A platform name must have 1 to 200 characters');
      const platform = await repo.insertPlatform({ id: newId(ID_PREFIX.platform), name: trimmed });
      return { platform, apiKey: await issueKey(platform.id) };
    },

    list: () => repo.findPlatforms(),

    /** The platform, or undefined. */
    find: (platformId: string) => repo.findPlatform(platformId),

    async listKeys(platformId: string) {
      await requirePlatform(platformId);
      return repo.findApiKeys(platformId);
    },

    /** A new key; the old ones keep working until revoked, so clients can roll over without downtime. */
    async rotateKey(platformId: string) {
      await requirePlatform(platformId);
      return issueKey(platformId);
    },

    async revokeKey(keyId: string) {
      const key = await repo.findApiKey(keyId);
      if (!key) throw new NotFoundError(`API key '${keyId}' not found`);
      await repo.revokeApiKey(key.platform_id, keyId);
      return key;
    },

    /**
     * Whether tokens minted with this key are still honoured (http/auth.ts asks on every bearer request): null when
     * not, else the key's platform's pinned API version.
     */
    activeKey: (keyId: string) => repo.activeApiKey(keyId),

    /** Moves the platform's default API version (the operator's `statehouse platforms set-version`). */
    async setApiVersion(platformId: string, version: string) {
      if (!isApiVersion(version))
        throw new InvalidInputError(['version'], `Unknown API version '${version}'. ${knownVersionsSentence()}`, version);
      const platform = await repo.setApiVersion(platformId, version);
      if (!platform) throw new NotFoundError(`Platform '${platformId}' not found`);
      return platform;
    },

    /** A key of this platform revoked; 404 for another platform's key (the console acts for one platform). */
    async revokePlatformKey(platformId: string, keyId: string): Promise<void> {
      const key = await repo.findApiKey(keyId);
      if (!key || key.platform_id !== platformId) throw new NotFoundError(`API key '${keyId}' not found`);
      await repo.revokeApiKey(platformId, keyId);
    },

    /** Resolves the Authorization header of the signup and auth operations. */
    async authenticate(authorization: string | undefined): Promise<PlatformPrincipal> {
      const key = parseApiKey(authorization);
      if (!key) throw new UnauthorizedError('Missing API key: send it in the Authorization header', 'ApiKey');
      const found = await repo.findApiKeyByHash(hashSecret(key));
      if (!found) throw new UnauthorizedError('Invalid API key', 'ApiKey');
      if (found.revoked_at) throw new ForbiddenError('This API key has been revoked');
      return { platformId: found.platform_id, platformName: found.platform_name, apiKeyId: found.id, apiVersion: found.api_version };
    },
  };
}

/** Accepts both the raw key and `Bearer <key>`. */
function parseApiKey(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim();
  const match = /^bearer\s+(.+)$/i.exec(value);
  const key = (match ? match[1]! : value).trim();
  return key.length > 0 && key.length <= 512 ? key : null;
}

export type PlatformsService = ReturnType<typeof createPlatformsService>;
