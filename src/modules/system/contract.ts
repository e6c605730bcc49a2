// What other modules may use of the installation: its instance keys (token, CSRF and file-link keys) by name.
/** The installation's own keys, one row each in `instance_secrets`. */
export const INSTANCE_KEY = {
  accessTokens: 'access-token-signing-key',
  csrf: 'hosted-csrf-key',
  fileLinks: 'file-link-key',
} as const;

export type InstanceKeyName = (typeof INSTANCE_KEY)[keyof typeof INSTANCE_KEY];

export type { InstanceKeys } from './instance-keys.js';
