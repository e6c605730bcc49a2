/** Row types of the imports of a platform's book (src/modules/imports/, docs/imports.md). */
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './columns.js';

export type ImportStatus = 'queued' | 'running' | 'succeeded' | 'completed_with_errors' | 'failed';
export type ImportRowResult = 'created' | 'unchanged' | 'failed';

export interface ImportsTable {
  id: string;
  platform_id: string;
  status: ColumnType<ImportStatus, ImportStatus | undefined, ImportStatus>;
  /** 'csv' or 'jsonl': how the file was read. */
  format: string;
  total: number;
  created_at: CreatedAt;
  started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ImportRowsTable {
  import_id: string;
  platform_id: string;
  /** The row's number in the file (1 = the first business; a CSV's header is not counted). */
  row_number: number;
  external_company_id: string | null;
  /** The validated row, until it is processed (then null). */
  input: ColumnType<unknown, string | null, string | null>;
  /** null: not processed yet. */
  result: ColumnType<ImportRowResult | null, ImportRowResult | null | undefined, ImportRowResult | null>;
  legal_entity_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The row's errors in the 422 item shape ({type, loc, msg, input}). */
  errors: ColumnType<unknown, string | null | undefined, string | null>;
}
