// Who a request authenticates as: set on the request by the auth hooks (auth.ts), read by the modules.
// Kept here, below the modules, so http and every module can name them without importing modules/auth
// or modules/platforms (docs/architecture.md, "Layers and the rule that keeps them").

/** The platform an API key authenticates; every legal entity belongs to exactly one. */
export interface PlatformPrincipal {
  platformId: string;
  platformName: string;
  apiKeyId: string;
  /** The platform's pinned API version (http/api-versions.ts), read with the key. */
  apiVersion?: string;
}

/** What a bearer token proves: one legal entity of one platform, until it expires. */
export interface AccessScope {
  platformId: string;
  legalEntityId: string;
  /** The platform's pinned API version, read with the token's API key on each request (absent where nothing read it). */
  apiVersion?: string;
}
