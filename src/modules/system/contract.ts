// What other modules may use of the installation: its instance keys (token, CSRF and file-link keys) by name.
/** The installation's own keys, one row each in `instance_secrets`. */
export const INSTANCE_KEY = {
  accessTokens: 'access-token-signing-key',
  csrf: 'hosted-csrf-key',
  fileLinks: 'file-link-key',
} as const;

export type InstanceKeyName = (typeof INSTANCE_KEY)[keyof typeof INSTANCE_KEY];

/** The installation's keys, shared through the database and sealed with the vault key (createInstanceKeys). */
export interface InstanceKeys {
  /** The key, re-validated at most once a second (a rotation elsewhere reaches this process within a second). */
  get(name: InstanceKeyName): Promise<Buffer>;
  /** The key a rotation replaced, if any (still accepted for what it signed). */
  previous(name: InstanceKeyName): Promise<Buffer | null>;
  /** The key and the one it replaced, for verifying; `reload` re-reads them at once when they changed, else null. */
  verifying(name: InstanceKeyName): { get(): Promise<readonly Buffer[]>; reload(): Promise<readonly Buffer[] | null> };
  /** Replaces a key with a fresh one, keeping the replaced one as the previous one. */
  rotate(name: InstanceKeyName): Promise<void>;
  /** Re-seals every instance key not under the current vault key (safe beside live servers, and to re-run). */
  reseal(): Promise<{ resealed: number; alreadyCurrent: number }>;
}
