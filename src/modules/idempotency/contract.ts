// What other modules may use of idempotency: the header names (the hooks live in idempotency.plugin.ts, registered by app.ts).
export { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency.fns.js';
export type { IdempotencyService } from './idempotency.service.js';
