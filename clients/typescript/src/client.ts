// The two clients: one with the platform's API key (signup, tokens, webhook endpoints, events) and one for a
// legal entity, with its access token kept fresh. Both are openapi-fetch clients typed by the service's
// /openapi.json (src/generated/schema.ts), sending through transport.ts: a call that does not answer 2xx throws.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/schema.js';
import { createTokenSource, type TokenSource } from './tokens.js';
import { createTransport, type Credentials, type TransportOptions } from './transport.js';

/** The typed client: `GET`, `POST`, `PUT`, `PATCH`, `DELETE` on the service's paths. */
export type StatehouseApi = Client<paths>;

export interface ClientOptions extends TransportOptions {
  /** Where Statehouse answers, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

export interface ApiKeyClientOptions extends ClientOptions {
  /** The platform's API key (`sh_key_…`). */
  apiKey: string;
}

export interface EntityClientOptions extends ApiKeyClientOptions {
  /** The legal entity every call acts for. */
  legalEntityId: string;
  /** Refresh the token when less than this remains (default 60 000 ms of its 10 minutes). */
  refreshMarginMs?: number;
}

export interface EntityClient extends StatehouseApi {
  readonly legalEntityId: string;
  /** The entity's access token, for inspection or for another HTTP client. */
  readonly tokens: TokenSource;
}

function openApiClient(credentials: Credentials, options: ClientOptions): StatehouseApi {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: createTransport(credentials, options),
    ...(options.headers && { headers: options.headers }),
  });
}

/** A client that authenticates with the platform's API key. */
export function createApiKeyClient(options: ApiKeyClientOptions): StatehouseApi {
  return openApiClient({ authorization: async () => options.apiKey }, options);
}

/** A client for one legal entity: its token comes from POST /v2/auth and is refreshed before it runs out. */
export function createEntityClient(options: EntityClientOptions): EntityClient {
  const platform = createApiKeyClient(options);
  const tokens = createTokenSource({
    ...(options.now && { now: options.now }),
    ...(options.refreshMarginMs !== undefined && { refreshMarginMs: options.refreshMarginMs }),
    issue: async () => {
      const { data } = await platform.POST('/v2/auth', { body: { legal_entity_id: options.legalEntityId } });
      if (!data) throw new Error('POST /v2/auth answered without a body');
      return data;
    },
  });
  return Object.assign(openApiClient(tokens, options), { legalEntityId: options.legalEntityId, tokens });
}
