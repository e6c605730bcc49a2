/** What the console acts on, from the modules that own it (given by app.ts through their contracts). */
import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/contract.js';
import type { EventLogReader } from '../events/contract.js';
import type { BrandUpdate, BrandView, CallbackOrigins } from '../platforms/contract.js';
import type { RequestLogsService } from '../request-logs/contract.js';
import type { WebhookEndpointsAdmin, WebhookTestEvents } from '../webhooks/contract.js';

/** A platform's API keys: listed (never the secret), made (the secret shown once), revoked. */
export interface ConsoleApiKeys {
  list(platformId: string): Promise<{ id: string; key_hint: string; created_at: Date; revoked_at: Date | null }[]>;
  create(platformId: string): Promise<{ id: string; key: string; hint: string }>;
  /** 404 for a key of another platform. */
  revoke(platformId: string, keyId: string): Promise<void>;
}

export interface ConsoleOperations {
  /** The platform's name (404 for an unknown one). */
  platformName(platformId: string): Promise<string>;
  keys: ConsoleApiKeys;
  origins: Pick<CallbackOrigins, 'list' | 'add' | 'remove'>;
  brands: {
    get(platformId: string): Promise<BrandView>;
    /** Writes the change and `onWritten` (the audit line) in one transaction. */
    update(platformId: string, update: BrandUpdate, onWritten: (trx: Db) => Promise<void>): Promise<BrandView>;
  };
  endpoints: WebhookEndpointsAdmin;
  testEvents: WebhookTestEvents;
  requestLogs: RequestLogsService;
  events: EventLogReader;
  audit: Pick<AuditService, 'recordConsole' | 'listConsole'>;
}
