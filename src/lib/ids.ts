import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** An opaque random public id: a short type prefix and 120 random bits, e.g. `le_4x9…`. */
export function newId(prefix: string): string {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${prefix}_${out}`;
}

export const ID_PREFIX = {
  platform: 'plt',
  apiKey: 'key',
  legalEntity: 'le',
  hostedSession: 'hs',
} as const;
