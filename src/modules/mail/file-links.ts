import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/secrets.js';

/** Path of the download route; deliberately not under /hosted (the hosted cookie's path). */
export const MAIL_FILE_PATH = '/files/mail/';

export type LinkCheck = 'ok' | 'forged' | 'expired';

/**
 * Signed, expiring download links for mail PDFs: `…/files/mail/{id}?expires={unix s}&signature={HMAC}`.
 * The HMAC-SHA256 covers the mail id, its legal entity and the expiry, keyed by an instance secret
 * created once in `instance_secrets` (so every process sharing the database accepts every other's
 * links). A link needs no bearer token — a browser can open it — yet cannot be made for another item,
 * another entity or a later expiry without the key.
 */
export function createFileLinks(deps: { key: () => Promise<Buffer>; publicBaseUrl: string; ttlSeconds: number; now: () => Date }) {
  const signingKey = deps.key;

  // A versioned, newline-separated message: ids never contain newlines, so fields cannot run together.
  const message = (mailId: string, legalEntityId: string, expires: number) =>
    `statehouse-mail-file:v1\n${mailId}\n${legalEntityId}\n${expires}`;
  const mac = async (mailId: string, legalEntityId: string, expires: number) =>
    createHmac('sha256', await signingKey())
      .update(message(mailId, legalEntityId, expires))
      .digest();

  /**
   * A synchronous signer for many links at once (a listing): the key is read once and every link of
   * the batch shares one expiry.
   */
  async function signer(): Promise<(item: { id: string; legalEntityId: string }) => string> {
    const signingKeyValue = await signingKey();
    const expires = Math.floor(deps.now().getTime() / 1000) + deps.ttlSeconds;
    return (item) => {
      const signature = createHmac('sha256', signingKeyValue)
        .update(message(item.id, item.legalEntityId, expires))
        .digest('base64url');
      return `${deps.publicBaseUrl}${MAIL_FILE_PATH}${encodeURIComponent(item.id)}?expires=${expires}&signature=${signature}`;
    };
  }

  return {
    signer,

    /**
     * Checks a link's query for one item. Expiry is judged only after the signature holds, so an
     * altered `expires` is a forgery, not an expired link.
     */
    async verify(item: { id: string; legalEntityId: string }, expiresRaw: unknown, signatureRaw: unknown): Promise<LinkCheck> {
      if (typeof expiresRaw !== 'string' || !/^\d{1,12}$/.test(expiresRaw)) return 'forged';
      if (typeof signatureRaw !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signatureRaw)) return 'forged';
      const expires = Number(expiresRaw);
      // `expires=0900` and `expires=900` would sign the same number: only the canonical spelling counts.
      if (String(expires) !== expiresRaw) return 'forged';
      // Compared as text: base64url has spare bits in its last character, so decoding would accept look-alikes.
      const expected = (await mac(item.id, item.legalEntityId, expires)).toString('base64url');
      if (!safeEqual(Buffer.from(signatureRaw), Buffer.from(expected))) return 'forged';
      return deps.now().getTime() >= expires * 1000 ? 'expired' : 'ok';
    },
  };
}

export type FileLinks = ReturnType<typeof createFileLinks>;
