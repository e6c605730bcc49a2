import type { Db } from '../../db/database.js';
import { InvalidInputError } from '../../lib/errors.js';
import { createPlatformsRepository } from './platforms.repository.js';

/**
 * Protection against open redirects: a platform lists the origins its callback URLs may use
 * (`statehouse platforms callbacks add`). When it lists any, every callback_url it sends must use one
 * of them. A platform that lists none may use any http(s) URL in development; in production
 * (`requireRegistered`) such a callback URL is refused, so hosted flows only ever redirect to a
 * registered origin.
 */
export function createCallbackOrigins(db: Db, options: { requireRegistered?: boolean } = {}) {
  const repo = createPlatformsRepository(db);
  return {
    list: (platformId: string) => repo.findCallbackOrigins(platformId),

    async add(platformId: string, url: string): Promise<string> {
      const origin = normaliseOrigin(url);
      await repo.insertCallbackOrigin(platformId, origin);
      return origin;
    },

    remove: (platformId: string, url: string) => repo.deleteCallbackOrigin(platformId, normaliseOrigin(url)),

    /**
     * Throws InvalidInputError on `field` (the operation's input field holding the URL, e.g. `callback_url`)
     * when the platform restricts callbacks and this URL is not allowed.
     */
    async check(platformId: string, callbackUrl: string | null | undefined, field: string): Promise<void> {
      if (!callbackUrl) return;
      const allowed = await repo.findCallbackOrigins(platformId);
      const origin = new URL(callbackUrl).origin;
      if (allowed.includes(origin)) return;
      if (allowed.length === 0) {
        if (!options.requireRegistered) return;
        throw new InvalidInputError(
          [field],
          `this platform has no registered callback origins, so no callback URL is accepted; the operator registers one with: statehouse platforms callbacks add ${platformId} ${origin}`,
          callbackUrl,
        );
      }
      const msg = `the callback origin ${origin} is not among this platform's allowed callback origins (register it with: statehouse platforms callbacks add ${platformId} ${origin})`;
      throw new InvalidInputError([field], msg, callbackUrl);
    },
  };
}

export type CallbackOrigins = ReturnType<typeof createCallbackOrigins>;

export function normaliseOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`'${url}' is not a URL (expected e.g. https://app.example.com)`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`'${url}' must be an http(s) origin`);
  return parsed.origin;
}
