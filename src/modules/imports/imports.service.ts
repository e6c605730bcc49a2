// An import of a platform's book: the file read and every row checked up front, stored with its job; its progress.
import type { Db } from '../../db/database.js';
import type { ImportRowResult } from '../../db/schema.js';
import { HttpError, NotFoundError, RequestValidationError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { JobSender } from '../../jobs/queue.js';
import { checkRows, readRecords, UnreadableFileError, type ImportFormat } from './imports.input.js';
import { createImportsRepository } from './imports.repository.js';
import { MAX_IMPORT_ROWS, type ImportRowResultView, type ImportView } from './imports.schemas.js';

export const IMPORT_JOB = 'imports.run';

export interface ImportsServiceDeps {
  db: Db;
  /** The import's job is enqueued in the transaction that stores it (none: the caller runs it, as the CLI does). */
  jobs?: JobSender;
}

type ImportRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createImportsRepository>['findImport']>>>;

function toView(row: ImportRecord, counts: Map<ImportRowResult | 'pending', number> | undefined): ImportView {
  const n = (key: ImportRowResult | 'pending') => counts?.get(key) ?? 0;
  return {
    id: row.id,
    status: row.status,
    format: row.format as ImportFormat,
    counts: { total: row.total, created: n('created'), unchanged: n('unchanged'), failed: n('failed'), pending: n('pending') },
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

export function createImportsService(deps: ImportsServiceDeps) {
  const { db } = deps;
  const repo = createImportsRepository(db);

  async function get(platformId: string, importId: string): Promise<ImportView> {
    const found = await repo.findImport(platformId, importId);
    // Another platform's import is not found either.
    if (!found) throw new NotFoundError(`Import '${importId}' not found`);
    return toView(found, (await repo.countsOf(platformId, [importId])).get(importId));
  }

  return {
    /**
     * Reads the file, checks every row (a bad row is stored failed with its errors; the good ones go on) and stores the
     * import, its rows and its job in one transaction. A file with more than MAX_IMPORT_ROWS rows is a 413.
     */
    async create(platformId: string, format: ImportFormat, text: string): Promise<ImportView> {
      let records;
      try {
        records = readRecords(format, text);
      } catch (error) {
        if (!(error instanceof UnreadableFileError)) throw error;
        throw new RequestValidationError([
          { type: 'csv_invalid', loc: ['body'], msg: `The CSV could not be read: ${error.message}`, input: null },
        ]);
      }
      if (records.length > MAX_IMPORT_ROWS)
        throw new HttpError(413, `The file has ${records.length} rows; an import takes at most ${MAX_IMPORT_ROWS}`);
      if (records.length === 0)
        throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'The file has no rows', input: null }]);
      const rows = checkRows(records);
      const id = newId('imp');
      await db.transaction().execute(async (trx) => {
        const inTrx = createImportsRepository(trx);
        await inTrx.insertImport({ id, platform_id: platformId, format, total: rows.length });
        await inTrx.insertRows(
          id,
          platformId,
          rows.map((r) => ({ row: r.row, externalId: r.externalId, input: r.value, errors: r.issues })),
        );
        await deps.jobs?.send(IMPORT_JOB, { import_id: id, platform_id: platformId }, { transaction: trx });
      });
      return get(platformId, id);
    },

    get,

    /** A page of the import's rows, in file order, after `startingAfter`. */
    async rows(
      platformId: string,
      importId: string,
      page: { limit: number; startingAfter?: number; status?: ImportRowResult | 'pending' },
    ): Promise<{ items: ImportRowResultView[]; next: number | null }> {
      const rows = await repo.rowsOf(platformId, importId, { ...page, startingAfter: page.startingAfter ?? 0, limit: page.limit + 1 });
      const items = rows.slice(0, page.limit).map((r) => ({
        row: r.row_number,
        external_company_id: r.external_company_id,
        status: r.result ?? ('pending' as const),
        legal_entity_id: r.legal_entity_id,
        errors: (r.errors as ImportRowResultView['errors'] | null) ?? [],
      }));
      return { items, next: rows.length > page.limit ? items.at(-1)!.row : null };
    },

    /** The platform's imports, newest first. */
    async list(platformId: string, page: { limit: number; startingAfter?: string }): Promise<{ items: ImportView[]; next: string | null }> {
      const after = page.startingAfter ? await repo.findImport(platformId, page.startingAfter) : undefined;
      if (page.startingAfter && !after) throw new NotFoundError(`Import '${page.startingAfter}' not found`);
      const rows = await repo.listImports(platformId, page.limit + 1, after);
      const shown = rows.slice(0, page.limit);
      const counts = await repo.countsOf(
        platformId,
        shown.map((r) => r.id),
      );
      return { items: shown.map((r) => toView(r, counts.get(r.id))), next: rows.length > page.limit ? shown.at(-1)!.id : null };
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
