import type { Readable } from 'node:stream';
import { regionByCode, resolveRegion } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { MailItemRow } from '../../db/schema.js';
import { ForbiddenError, HttpError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccessScope } from '../../http/principals.js';
import type { EventRecorder } from '../events/contract.js';
import type { FileLinks } from './file-links.js';
import type { FileStorage } from './file-storage.js';
import {
  checkDateRange,
  checkPdf,
  checkReceived,
  checkRegion,
  checkType,
  MAX_FILE_NAME_LENGTH,
  MAX_SENDER_LENGTH,
  MAX_SUBJECT_LENGTH,
  optionalText,
} from './mail.input.js';
import { createMailRepository } from './mail.repository.js';
import type { MailFilter, MailIngestInput, MailItemView, MailService } from './contract.js';

export const MAIL_ID_PREFIX = 'mail';
/** Files younger than this are never collected: an upload may be between its file write and its row. */
export const GC_GRACE_MS = 60 * 60 * 1000;

export const EXPIRED_LINK_DETAIL = 'This download link has expired; list the mail again for a fresh link';
export const FORGED_LINK_DETAIL = 'This download link is not valid';

/** A filename safe for a `Content-Disposition` header: printable ASCII without quotes or separators. */
export function downloadName(item: { id: string; fileName: string | null }): string {
  const base = (item.fileName ?? '')
    .replace(/\.pdf$/i, '')
    .replace(/[^A-Za-z0-9._ -]+/g, '_')
    .replace(/^[._ ]+/, '')
    .slice(0, 100)
    .trim();
  return `${base || item.id}.pdf`;
}

/** Mail received for a legal entity: intake (operators), listings (platforms) and signed downloads. */
/**
 * `mail.received`'s object: the item as GET /v2/mail lists it, without `file_url` — a signed link lives 15 minutes
 * and a payload is kept (and redelivered) far longer; GET /v2/mail gives a fresh link when the file is wanted.
 */
export const toMailEventObject = (row: MailItemRow) => ({
  id: row.id,
  region: row.region_code,
  type: row.type,
  received: row.received_on,
  sender: row.sender,
});

export interface MailServiceDeps {
  db: Db;
  storage: FileStorage;
  links: FileLinks;
  maxBytes: number;
  now: () => Date;
  /** mail.received, in the item's transaction. */
  events: EventRecorder;
}

export function createMailService(deps: MailServiceDeps): MailService {
  // db opens the transactions that hold the file store's lock; every query is in mail.repository.ts.
  const { db } = deps;
  const repo = createMailRepository(db);

  type Sign = (item: { id: string; legalEntityId: string }) => string;
  const toViews = async (rows: MailItemRow[]): Promise<MailItemView[]> => {
    const sign = await deps.links.signer();
    return rows.map((row) => toView(row, sign));
  };

  function toView(row: MailItemRow, sign: Sign): MailItemView {
    return {
      id: row.id,
      legalEntityId: row.legal_entity_id,
      region: row.region_code ? (regionByCode(row.region_code) ?? null) : null,
      type: row.type,
      receivedOn: row.received_on,
      sender: row.sender,
      subject: row.subject,
      openedAt: row.opened_at,
      fileName: row.file_name,
      fileSha256: row.file_sha256,
      fileSize: row.file_size,
      createdAt: row.created_at,
      fileUrl: sign({ id: row.id, legalEntityId: row.legal_entity_id }),
    };
  }

  async function requireEntity(legalEntityId: string) {
    if (!(await repo.legalEntityExists(legalEntityId))) throw new NotFoundError(`Legal entity '${legalEntityId}' not found`);
  }

  async function list(legalEntityId: string, filter: MailFilter = {}): Promise<MailItemView[]> {
    checkDateRange(filter.startDate, filter.endDate);
    return toViews(await repo.findItems(legalEntityId, filter));
  }

  /** Checks the item, stores its file (under the shared lock) and inserts its row, in `trx`. */
  async function ingestIn(trx: Db, input: MailIngestInput): Promise<MailItemRow> {
    const region = checkRegion(input.regionCode);
    const type = checkType(input.type);
    const receivedOn = checkReceived(input.receivedOn, deps.now());
    const sender = optionalText(input.sender, 'sender', MAX_SENDER_LENGTH);
    const subject = optionalText(input.subject, 'subject', MAX_SUBJECT_LENGTH);
    const fileName = optionalText(input.fileName, 'file_name', MAX_FILE_NAME_LENGTH);
    checkPdf(input.bytes, deps.maxBytes);
    // The shared lock keeps garbage collection (which takes it exclusively) from removing a file between
    // its write — or its discovery as already stored — and the commit of the row that refers to it.
    const inTrx = createMailRepository(trx);
    await inTrx.lockFileStoreShared();
    const stored = await deps.storage.put(input.bytes);
    const row = await inTrx.insertItem({
      id: newId(MAIL_ID_PREFIX),
      legal_entity_id: input.legalEntityId,
      region_code: region?.code ?? null,
      type,
      received_on: receivedOn,
      sender,
      subject,
      file_sha256: stored.sha256,
      file_size: stored.size,
      file_name: fileName,
    });
    const platformId = await inTrx.platformOf(input.legalEntityId);
    if (!platformId) throw new NotFoundError(`Legal entity '${input.legalEntityId}' not found`);
    await deps.events.record(trx, {
      type: 'mail.received',
      platformId,
      legalEntityId: input.legalEntityId,
      data: { object: toMailEventObject(row) },
    });
    return row;
  }

  return {
    /**
     * Operator intake of one PDF. The file is stored (and fsynced) before the row is committed, so an
     * acknowledged item always has its file; a failure in between leaves at most an unreferenced file.
     */
    async ingest(input: MailIngestInput): Promise<MailItemView> {
      await requireEntity(input.legalEntityId);
      const row = await db.transaction().execute(async (trx) => {
        const item = await ingestIn(trx, input);
        await input.inTransaction?.(trx, { id: item.id, legalEntityId: input.legalEntityId });
        return item;
      });
      return (await toViews([row]))[0]!;
    },

    /**
     * Intake in the caller's transaction (a completed automation's confirmation): the file is stored before
     * the row, under the file store's shared lock; if the transaction rolls back, the file is left without a
     * row and the daily garbage collection removes it.
     */
    ingestIn,

    /** The entity's mail, newest received first; dates are inclusive, start after end is a 422. */
    list: (scope: AccessScope, filter: MailFilter = {}) => list(scope.legalEntityId, filter),

    /**
     * The owner opens an item from the documents page: the first opening is recorded (the page stops calling it
     * new) and a fresh signed link is returned. Another entity's item, or an unknown one, is a 404.
     */
    async openForOwner(scope: AccessScope, mailId: string): Promise<string> {
      const row = await repo.markOpened(scope.legalEntityId, mailId, deps.now());
      if (!row) throw new NotFoundError(`Mail item '${mailId}' not found`);
      return (await toViews([row]))[0]!.fileUrl;
    },

    /** Unversioned location path: a location id or a two-letter code; an unknown one is a 404. */
    listForLocation(scope: AccessScope, idOrCode: string, filter: Omit<MailFilter, 'regionCode'> = {}) {
      const region = resolveRegion(idOrCode);
      if (!region) throw new NotFoundError(`Location '${idOrCode}' not found`);
      return list(scope.legalEntityId, { ...filter, regionCode: region.code });
    },

    /** Operator listing: any entity (unknown → 404). */
    async listForOperator(legalEntityId: string, filter: MailFilter = {}) {
      await requireEntity(legalEntityId);
      return list(legalEntityId, filter);
    },

    /**
     * Removes stored files no mail item refers to — what a crash between the file write and the row
     * commit leaves behind — and leftovers of interrupted writes. Only files older than `graceMs` are
     * considered, so an upload in flight (file written, row not yet committed) is never touched.
     */
    async collectGarbage(graceMs = GC_GRACE_MS): Promise<{ checked: number; removed: number; leftovers: number }> {
      const before = new Date(deps.now().getTime() - graceMs);
      let checked = 0;
      let removed = 0;
      let batch: string[] = [];
      const sweep = async () => {
        if (batch.length === 0) return;
        const candidates = batch;
        batch = [];
        await db.transaction().execute(async (trx) => {
          const inTrx = createMailRepository(trx);
          // Exclusive: no upload is between its file write and its row commit while we decide and remove.
          await inTrx.lockFileStoreExclusive();
          const referenced = await inTrx.findReferencedFiles(candidates);
          for (const sha256 of candidates) {
            if (!referenced.has(sha256)) {
              await deps.storage.remove(sha256);
              removed++;
            }
          }
        });
      };
      for await (const file of deps.storage.list()) {
        checked++;
        if (file.writtenAt >= before) continue;
        batch.push(file.sha256);
        if (batch.length >= 500) await sweep();
      }
      await sweep();
      return { checked, removed, leftovers: await deps.storage.removeLeftovers(before) };
    },

    /**
     * The file behind a signed link. The link names the item; its signature must be for that item and
     * its entity (403 otherwise), then unexpired (410).
     */
    async openSignedFile(
      mailId: string,
      expires: unknown,
      signature: unknown,
    ): Promise<{ stream: Readable; size: number; fileName: string }> {
      const row = await repo.findItemForLink(mailId);
      if (!row) throw new NotFoundError(`Mail item '${mailId}' not found`);
      const check = await deps.links.verify({ id: row.id, legalEntityId: row.legal_entity_id }, expires, signature);
      if (check === 'forged') throw new ForbiddenError(FORGED_LINK_DETAIL);
      if (check === 'expired') throw new HttpError(410, EXPIRED_LINK_DETAIL);
      const file = await deps.storage.read(row.file_sha256);
      // The row is only written after its file is durable: a missing file is damage, not a user error.
      if (!file) throw new Error(`The file ${row.file_sha256} of mail item ${row.id} is missing from the file store`);
      return { ...file, fileName: downloadName({ id: row.id, fileName: row.file_name }) };
    },
  };
}
