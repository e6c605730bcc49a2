import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

// Random bytes are drawn in blocks: one system call serves many ids (task generation creates thousands).
const POOL_SIZE = 15 * 256;
let pool = Buffer.alloc(0);
let offset = POOL_SIZE;

function take15(): Buffer {
  if (offset + 15 > pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + 15);
  offset += 15;
  return bytes;
}

/** An opaque random public id: a short type prefix and 120 random bits, e.g. `le_4x9…`. */
export function newId(prefix: string): string {
  const bytes = take15();
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
  task: 'task',
} as const;
