import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { regionByCode, resolveRegion, type Region } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { MailItemRow, MailType } from '../../db/schema.js';
import { parseDate } from '../../http/validation/dates.js';
import { ForbiddenError, HttpError, NotFoundError, fieldError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccessScope } from '../../http/principals.js';
import type { FileLinks } from './file-links.js';
import type { FileStorage } from './file-storage.js';

export const MAIL_TYPES = ['registered-agent', 'external-mail'] as const satisfies readonly MailType[];
export const MAIL_ID_PREFIX = 'mail';
export const MAX_SENDER_LENGTH = 200;
export const MAX_FILE_NAME_LENGTH = 255;

/** How far from its end a PDF's `%%EOF` marker may be (writers add a newline or a little padding). */
const EOF_WINDOW = 1024;
const DAY_MS = 86_400_000;
/** Files younger than this are never collected: an upload may be between its file write and its row. */
export const GC_GRACE_MS = 60 * 60 * 1000;
/** Advisory lock key (any fixed bigint) guarding the file store's writes against garbage collection. */
const FILE_STORE_LOCK = 0x53_746f_7265; // "Store"

export const EXPIRED_LINK_DETAIL = 'This download link has expired; list the mail again for a fresh link';
export const FORGED_LINK_DETAIL = 'This download link is not valid';

export interface MailIngestInput {
  legalEntityId: string;
  /** Two-letter code of the state the mail concerns; absent for mail not tied to a state. */
  regionCode?: string | null;
  type?: MailType | null;
  /** YYYY-MM-DD; today (UTC) when absent. */
  receivedOn?: string | null;
  sender?: string | null;
  fileName?: string | null;
  bytes: Buffer;
}

export interface MailItemView {
  id: string;
  legalEntityId: string;
  region: Region | null;
  type: MailType;
  receivedOn: string;
  sender: string | null;
  fileName: string | null;
  fileSha256: string;
  fileSize: number;
  createdAt: Date;
  /** A signed download link, fresh at the time of the call. */
  fileUrl: string;
}

export interface MailFilter {
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
  regionCode?: string | null | undefined;
}

/**
 * Where the request's parameters are, for 422s: the operator API passes its query parameters; the CLI
 * uses the same names (and prints the messages).
 */
const at = (field: string) => (field === 'file' ? ['body'] : ['query', field]);

/** A filename safe for a `Content-Disposition` header: printable ASCII without quotes or separators. */
export function downloadName(item: { id: string; fileName: string | null }): string {
  const base = (item.fileName ?? '').replace(/\.pdf$/i, '').replace(/[^A-Za-z0-9._ -]+/g, '_').replace(/^[._ ]+/, '').slice(0, 100).trim();
  return `${base || item.id}.pdf`;
}

/** Mail received for a legal entity: intake (operators), listings (platforms) and signed downloads. */
export function createMailService(deps: { db: Db; storage: FileStorage; links: FileLinks; maxBytes: number; now: () => Date }) {
  const { db } = deps;

  type Sign = (item: { id: string; legalEntityId: string }) => string;
  const toViews = async (rows: MailItemRow[]): Promise<MailItemView[]> => {
    const sign = await deps.links.signer();
    return rows.map((row) => toView(row, sign));
  };

  function toView(row: MailItemRow, sign: Sign): MailItemView {
    return {
      id: row.id,
      legalEntityId: row.legal_entity_id,
      region: row.region_code ? regionByCode(row.region_code) ?? null : null,
      type: row.type,
      receivedOn: row.received_on,
      sender: row.sender,
      fileName: row.file_name,
      fileSha256: row.file_sha256,
      fileSize: row.file_size,
      createdAt: row.created_at,
      fileUrl: sign({ id: row.id, legalEntityId: row.legal_entity_id }),
    };
  }

  function checkPdf(bytes: Buffer) {
    if (bytes.length > deps.maxBytes) throw new HttpError(413, `The file is larger than the limit of ${deps.maxBytes} bytes`);
    if (bytes.length === 0) throw fieldError(at('file'), 'the file is empty; send the bytes of a PDF', null);
    if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') {
      throw fieldError(at('file'), 'the file is not a PDF (a PDF starts with %PDF-)', null);
    }
    if (!bytes.subarray(Math.max(0, bytes.length - EOF_WINDOW)).toString('latin1').includes('%%EOF')) {
      throw fieldError(at('file'), 'the PDF is incomplete: it has no %%EOF marker at its end (was the upload cut short?)', null);
    }
  }

  function checkReceived(value: string | null | undefined): string {
    const today = deps.now().toISOString().slice(0, 10);
    if (value === undefined || value === null || value === '') return today;
    const parsed = parseDate(value);
    if (!parsed.ok || typeof parsed.value !== 'string') throw fieldError(at('received'), `'${value}' is not a date (use YYYY-MM-DD)`, value);
    // "Today" anywhere in the US is at most the UTC date: one day of slack covers clocks and time zones.
    const latest = new Date(deps.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    if (parsed.value > latest) throw fieldError(at('received'), `the received date ${parsed.value} is in the future`, value);
    return parsed.value;
  }

  function optionalText(value: string | null | undefined, field: string, max: number): string | null {
    const text = value?.trim();
    if (!text) return null;
    if (text.length > max) throw fieldError(at(field), `${field} must be at most ${max} characters`, value);
    if (/[\u0000-\u001f\u007f]/.test(text)) throw fieldError(at(field), `${field} must not contain control characters`, value);
    return text;
  }

  async function list(legalEntityId: string, filter: MailFilter = {}): Promise<MailItemView[]> {
    const { startDate, endDate, regionCode } = filter;
    if (startDate && endDate && startDate > endDate) {
      throw fieldError(['query', 'end_date'], `end_date (${endDate}) is before start_date (${startDate})`, endDate);
    }
    let query = db.selectFrom('mail_items').selectAll().where('legal_entity_id', '=', legalEntityId);
    if (startDate) query = query.where('received_on', '>=', startDate);
    if (endDate) query = query.where('received_on', '<=', endDate);
    if (regionCode) query = query.where('region_code', '=', regionCode.toUpperCase());
    const rows = await query.orderBy('received_on', 'desc').orderBy('id').execute();
    return toViews(rows);
  }

  return {
    /**
     * Operator intake of one PDF. The file is stored (and fsynced) before the row is committed, so an
     * acknowledged item always has its file; a failure in between leaves at most an unreferenced file.
     */
    async ingest(input: MailIngestInput): Promise<MailItemView> {
      const entity = await db.selectFrom('legal_entities').select('id').where('id', '=', input.legalEntityId).executeTakeFirst();
      if (!entity) throw new NotFoundError(`Legal entity '${input.legalEntityId}' not found`);
      let region: Region | null = null;
      if (input.regionCode) {
        region = regionByCode(input.regionCode) ?? null;
        if (!region || input.regionCode.length !== 2) throw fieldError(at('region'), `unknown region '${input.regionCode}': use a two-letter state code such as CA`, input.regionCode);
      }
      const type = input.type ?? 'registered-agent';
      if (!MAIL_TYPES.includes(type)) throw fieldError(at('type'), `type must be one of ${MAIL_TYPES.join(', ')}`, type);
      const receivedOn = checkReceived(input.receivedOn);
      const sender = optionalText(input.sender, 'sender', MAX_SENDER_LENGTH);
      const fileName = optionalText(input.fileName, 'file_name', MAX_FILE_NAME_LENGTH);
      checkPdf(input.bytes);

      // The shared lock keeps garbage collection (which takes it exclusively) from removing a file between
      // its write — or its discovery as already stored — and the commit of the row that refers to it.
      const row = await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock_shared(${FILE_STORE_LOCK}::bigint)`.execute(trx);
        const stored = await deps.storage.put(input.bytes);
        return trx.insertInto('mail_items').values({
          id: newId(MAIL_ID_PREFIX), legal_entity_id: entity.id, region_code: region?.code ?? null, type, received_on: receivedOn,
          sender, file_sha256: stored.sha256, file_size: stored.size, file_name: fileName,
        }).returningAll().executeTakeFirstOrThrow();
      });
      return (await toViews([row]))[0]!;
    },

    /** The entity's mail, newest received first; dates are inclusive, start after end is a 422. */
    list: (scope: AccessScope, filter: MailFilter = {}) => list(scope.legalEntityId, filter),

    /** Unversioned location path: a location id or a two-letter code; an unknown one is a 404. */
    listForLocation(scope: AccessScope, idOrCode: string, filter: Omit<MailFilter, 'regionCode'> = {}) {
      const region = resolveRegion(idOrCode);
      if (!region) throw new NotFoundError(`Location '${idOrCode}' not found`);
      return list(scope.legalEntityId, { ...filter, regionCode: region.code });
    },

    /** Operator listing: any entity (unknown → 404). */
    async listForOperator(legalEntityId: string, filter: MailFilter = {}) {
      const entity = await db.selectFrom('legal_entities').select('id').where('id', '=', legalEntityId).executeTakeFirst();
      if (!entity) throw new NotFoundError(`Legal entity '${legalEntityId}' not found`);
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
          // Exclusive: no upload is between its file write and its row commit while we decide and remove.
          await sql`select pg_advisory_xact_lock(${FILE_STORE_LOCK}::bigint)`.execute(trx);
          const referenced = new Set((await trx.selectFrom('mail_items').select('file_sha256').distinct()
            .where('file_sha256', 'in', candidates).execute()).map((r) => r.file_sha256));
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
    async openSignedFile(mailId: string, expires: unknown, signature: unknown): Promise<{ stream: Readable; size: number; fileName: string }> {
      const row = await db.selectFrom('mail_items').selectAll().where('id', '=', mailId).executeTakeFirst();
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

export type MailService = ReturnType<typeof createMailService>;
