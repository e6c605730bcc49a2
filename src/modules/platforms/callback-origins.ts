import type { Db } from '../../db/database.js';
import { callbackOriginOf, checkCallbackUrl } from '../../lib/callback-url.js';
import { InvalidInputError } from '../../lib/errors.js';
import { createPlatformsRepository } from './platforms.repository.js';

/**
 * Protection against open redirects: a platform lists the origins its callback URLs may use
 * (`statehouse platforms callbacks add`): http(s) origins (https://app.example.com) and its mobile apps' schemes
 * (myapp://, matching every myapp: deep link). When it lists any, every callback_url it sends must use one
 * of them. A platform that lists none may use any callback URL in development (http(s) or an app's scheme; the
 * request schema already refuses javascript:, data:, vbscript:, file: and relative URLs); in production
 * (`requireRegistered`) such a callback URL is refused, so hosted flows only ever redirect to a registered origin.
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
      const origin = callbackOriginOf(new URL(callbackUrl));
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

/** https://app.example.com/any/path → https://app.example.com; myapp:, myapp:// or myapp://tasks → myapp:// */
export function normaliseOrigin(url: string): string {
  const bareScheme = /^([A-Za-z][A-Za-z0-9+.-]*):(\/\/)?$/.exec(url.trim());
  const checked = checkCallbackUrl(bareScheme ? `${bareScheme[1]}://` : url.trim());
  if (!checked.ok) {
    throw new Error(
      `'${url}' is not a callback origin (expected an http(s) origin such as https://app.example.com, or an app's scheme such as myapp://): ${checked.reason}`,
    );
  }
  return callbackOriginOf(checked.url);
}
