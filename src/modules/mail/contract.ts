// What other modules may use of mail: the service (intake, listings, signed files), the mail types and the
// `mail.received` payload schema.
import type { Readable } from 'node:stream';
import type { Region } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { MailItemRow, MailType } from '../../db/schema.js';
import type { AccessScope } from '../../http/principals.js';

export { MAIL_TYPES } from './mail.input.js';
export { MailEventSchema } from './mail.schemas.js';

/** Which mail a listing shows (dates are YYYY-MM-DD, both ends included). */
export interface MailFilter {
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
  regionCode?: string | null | undefined;
}

export interface MailIngestInput {
  legalEntityId: string;
  /** Two-letter code of the state the mail concerns; absent for mail not tied to a state. */
  regionCode?: string | null;
  type?: MailType | null;
  /** YYYY-MM-DD; today (UTC) when absent. */
  receivedOn?: string | null;
  sender?: string | null;
  /** What the mail is about; shown on the documents page. */
  subject?: string | null;
  fileName?: string | null;
  bytes: Buffer;
  /** Runs in the item's transaction (an operator upload records its audit event there). */
  inTransaction?: (trx: Db, item: { id: string; legalEntityId: string }) => Promise<void>;
}

export interface MailItemView {
  id: string;
  legalEntityId: string;
  region: Region | null;
  type: MailType;
  receivedOn: string;
  sender: string | null;
  subject: string | null;
  /** When the owner first opened it from the documents page; null: new to them. */
  openedAt: Date | null;
  fileName: string | null;
  fileSha256: string;
  fileSize: number;
  createdAt: Date;
  /** A signed download link, fresh at the time of the call. */
  fileUrl: string;
}

/** Mail items and their files (implemented by createMailService in mail.service.ts). */
export interface MailService {
  /** Stores the PDF and its item, and records mail.received, in one transaction (every intake path). */
  ingest(input: MailIngestInput): Promise<MailItemView>;
  /**
   * Intake in the caller's transaction (a completed automation's confirmation): the file is stored before the row;
   * if the transaction rolls back, the daily garbage collection removes the file.
   */
  ingestIn(trx: Db, input: MailIngestInput): Promise<MailItemRow>;
  /** The entity's mail, newest first, each with a fresh signed link. */
  list(scope: AccessScope, filter?: MailFilter): Promise<MailItemView[]>;
  /** The documents page opens an item: marks it opened and answers its signed link. */
  openForOwner(scope: AccessScope, mailId: string): Promise<string>;
  /** Unversioned location path: a location id or a two-letter code; an unknown one is a 404. */
  listForLocation(scope: AccessScope, idOrCode: string, filter?: Omit<MailFilter, 'regionCode'>): Promise<MailItemView[]>;
  /** Operator listing: any entity (unknown → 404). */
  listForOperator(legalEntityId: string, filter?: MailFilter): Promise<MailItemView[]>;
  /** Removes stored files no item refers to, older than `graceMs` (the daily mail.gc job, `statehouse mail gc`). */
  collectGarbage(graceMs?: number): Promise<{ checked: number; removed: number; leftovers: number }>;
  /** The file behind a signed link: 403 for a forged signature, 410 for an expired one. */
  openSignedFile(mailId: string, expires: unknown, signature: unknown): Promise<{ stream: Readable; size: number; fileName: string }>;
}
