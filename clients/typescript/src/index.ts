// @statehouse/client: a typed client for the Statehouse API (README.md).
export {
  createApiKeyClient,
  createEntityClient,
  type ApiKeyClientOptions,
  type ClientOptions,
  type EntityClient,
  type EntityClientOptions,
  type StatehouseApi,
} from './client.js';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  ServerError,
  ValidationError,
  errorFromResponse,
  type ValidationIssue,
} from './errors.js';
export { NEXT_PAGE_HEADER, paginate, type PageItem, type PageQuery, type PagedPath } from './paging.js';
export { createTokenSource, type IssuedToken, type TokenSource, type TokenSourceOptions } from './tokens.js';
export { createTransport, type Credentials, type RetryOptions, type TransportOptions } from './transport.js';
export { WebhookSignatureError, verifyWebhook, type WebhookEvent } from './webhooks.js';
export type { components, operations, paths, webhooks } from './generated/schema.js';
