import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ImportRowResult, ImportStatus } from '../../db/schema.js';
import type { ValidationIssue } from '../../lib/errors.js';
import type { ImportRow } from './imports.schemas.js';

/** A row waiting to be processed, claimed (row-locked) by one batch. */
export interface PendingRow {
  row_number: number;
  external_company_id: string;
  input: ImportRow;
}

export interface RowOutcome {
  row: number;
  result: ImportRowResult;
  legalEntityId: string | null;
  errors: ValidationIssue[] | null;
}

const INSERT_CHUNK = 1000;

export function createImportsRepository(db: Db) {
  return {
    insertImport: (row: { id: string; platform_id: string; format: string; total: number }) =>
      db.insertInto('imports').values(row).execute(),

    /** The rows of a new import: valid ones pending (with their input), invalid ones failed with their errors. */
    async insertRows(
      importId: string,
      platformId: string,
      rows: { row: number; externalId: string | null; input: ImportRow | null; errors: ValidationIssue[] }[],
    ): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await db
          .insertInto('import_rows')
          .values(
            rows.slice(i, i + INSERT_CHUNK).map((r) => ({
              import_id: importId,
              platform_id: platformId,
              row_number: r.row,
              external_company_id: r.externalId,
              input: r.input && JSON.stringify(r.input),
              result: r.errors.length ? ('failed' as const) : null,
              errors: r.errors.length ? JSON.stringify(r.errors) : null,
            })),
          )
          .execute();
      }
    },

    /**
     * The next pending rows in file order (or the given ones), locked for this batch's transaction; rows another
     * batch holds are skipped, so two workers of one import never take the same row.
     */
    claimPending: async (importId: string, platformId: string, limit: number, only?: readonly number[]): Promise<PendingRow[]> => {
      let query = db
        .selectFrom('import_rows')
        .select(['row_number', 'external_company_id', 'input'])
        .where('import_id', '=', importId)
        .where('platform_id', '=', platformId)
        .where('result', 'is', null);
      if (only) query = query.where('row_number', 'in', [...only]);
      return (await query.orderBy('row_number').limit(limit).forUpdate().skipLocked().execute()) as PendingRow[];
    },

    /** Each row's result, stored with it (its input is dropped: it was only kept until then). */
    async storeOutcomes(importId: string, platformId: string, outcomes: readonly RowOutcome[]): Promise<void> {
      if (outcomes.length === 0) return;
      const values = outcomes.map((o) => ({
        row_number: o.row,
        result: o.result,
        legal_entity_id: o.legalEntityId,
        errors: o.errors ? JSON.stringify(o.errors) : null,
      }));
      await sql`
        update import_rows r set result = v.result, legal_entity_id = v.legal_entity_id, errors = v.errors::jsonb, input = null
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          as v(row_number integer, result text, legal_entity_id text, errors text)
        where r.import_id = ${importId} and r.platform_id = ${platformId} and r.row_number = v.row_number
      `.execute(db);
    },

    markRunning: (importId: string, platformId: string) =>
      db
        .updateTable('imports')
        .set({ status: 'running', started_at: new Date() })
        .where('id', '=', importId)
        .where('platform_id', '=', platformId)
        .where('status', '=', 'queued')
        .execute(),

    /** Once no row is pending: succeeded, or completed_with_errors when a row failed. */
    finish: async (importId: string, platformId: string): Promise<void> => {
      await sql`
        update imports i set finished_at = now(),
          status = case when exists (
            select 1 from import_rows r where r.import_id = i.id and r.platform_id = i.platform_id and r.result = 'failed'
          ) then 'completed_with_errors' else 'succeeded' end
        where i.id = ${importId} and i.platform_id = ${platformId} and i.status in ('queued', 'running')
          and not exists (select 1 from import_rows r where r.import_id = i.id and r.platform_id = i.platform_id and r.result is null)
      `.execute(db);
    },

    findImport: (platformId: string, importId: string) =>
      db.selectFrom('imports').selectAll().where('platform_id', '=', platformId).where('id', '=', importId).executeTakeFirst(),

    /** A platform's imports, newest first, after the given one. */
    async listImports(platformId: string, limit: number, startingAfter?: { created_at: Date; id: string }) {
      let query = db.selectFrom('imports').selectAll().where('platform_id', '=', platformId);
      if (startingAfter)
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', startingAfter.created_at),
            eb.and([eb('created_at', '=', startingAfter.created_at), eb('id', '<', startingAfter.id)]),
          ]),
        );
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** Rows by result, per import. */
    async countsOf(platformId: string, importIds: readonly string[]): Promise<Map<string, Map<ImportRowResult | 'pending', number>>> {
      const out = new Map<string, Map<ImportRowResult | 'pending', number>>();
      if (importIds.length === 0) return out;
      const rows = await db
        .selectFrom('import_rows')
        .select(['import_id', 'result', (eb) => eb.fn.countAll<string>().as('n')])
        .where('platform_id', '=', platformId)
        .where('import_id', 'in', [...importIds])
        .groupBy(['import_id', 'result'])
        .execute();
      for (const r of rows) {
        const counts = out.get(r.import_id) ?? new Map();
        counts.set(r.result ?? 'pending', Number(r.n));
        out.set(r.import_id, counts);
      }
      return out;
    },

    rowsOf: (
      platformId: string,
      importId: string,
      page: { limit: number; startingAfter: number; status?: ImportRowResult | 'pending' },
    ) => {
      let query = db
        .selectFrom('import_rows')
        .select(['row_number', 'external_company_id', 'result', 'legal_entity_id', 'errors'])
        .where('platform_id', '=', platformId)
        .where('import_id', '=', importId)
        .where('row_number', '>', page.startingAfter);
      if (page.status) query = page.status === 'pending' ? query.where('result', 'is', null) : query.where('result', '=', page.status);
      return query.orderBy('row_number').limit(page.limit).execute();
    },
  };
}

export type ImportsRepository = ReturnType<typeof createImportsRepository>;
export type { ImportStatus };
