import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a high-entropy secret (API key, session token). Such secrets need no slow hash. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** A random URL-safe secret with the given prefix; 32 bytes = 256 bits of entropy. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
