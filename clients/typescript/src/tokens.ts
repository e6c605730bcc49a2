// An entity's access token (POST /v2/auth with the platform's API key; 10 minutes): fetched on first use, fetched
// again when less than `refreshMarginMs` of it remains (by the injected clock), or when the service answers 401.
import type { Credentials } from './transport.js';

export interface IssuedToken {
  access_token: string;
  /** Seconds the token is valid from when it was issued. */
  expires_in: number;
}

export interface TokenSourceOptions {
  /** Issues a new token (the client calls POST /v2/auth with the API key). */
  issue: () => Promise<IssuedToken>;
  now?: () => number;
  /** Refresh when less than this remains (default 60 000 ms). */
  refreshMarginMs?: number;
}

export interface TokenSource extends Credentials {
  /** The current token, fetched first when there is none or it is about to expire. */
  token(): Promise<string>;
  /** When the current token expires (epoch ms by the source's clock), or null before the first. */
  expiresAt(): number | null;
}

export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 60_000;
  let current: { token: string; expiresAt: number } | null = null;
  // Concurrent calls that find the token stale share one POST /v2/auth.
  let pending: Promise<string> | null = null;

  const fetchToken = () => {
    pending ??= (async () => {
      try {
        const asked = now();
        const issued = await options.issue();
        current = { token: issued.access_token, expiresAt: asked + issued.expires_in * 1000 };
        return issued.access_token;
      } finally {
        pending = null;
      }
    })();
    return pending;
  };

  const token = async () => (current && current.expiresAt - now() >= margin ? current.token : fetchToken());

  return {
    token,
    expiresAt: () => current?.expiresAt ?? null,
    authorization: async () => `Bearer ${await token()}`,
    refresh: async () => {
      current = null;
      await fetchToken();
      return true;
    },
  };
}
