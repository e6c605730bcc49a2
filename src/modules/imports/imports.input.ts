// The file of an import read into rows (docs/imports.md): JSON lines or CSV, each row validated on its own.
import { parse } from 'csv-parse/sync';
import { compile } from '../../http/validation/validator.js';
import type { ValidationIssue } from '../../lib/errors.js';
import { ImportRowSchema, type ImportRow } from './imports.schemas.js';

export type ImportFormat = 'csv' | 'jsonl';

const FORMATS: Record<string, ImportFormat> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/jsonlines': 'jsonl',
};

export const IMPORT_CONTENT_TYPES = Object.keys(FORMATS);

export const formatOf = (contentType: string | undefined): ImportFormat | null =>
  FORMATS[contentType?.split(';')[0]?.trim().toLowerCase() ?? ''] ?? null;

/** A row of the file as read: its number (1: the first business) and its value, or why it could not be read. */
export interface RecordRead {
  row: number;
  value: unknown;
  issues: ValidationIssue[];
}

/** The file could not be read as a whole (a CSV with an unclosed quote): a 422 of the request. */
export class UnreadableFileError extends Error {}

const at = (row: number, ...path: (string | number)[]) => ['row', row, ...path];

function readJsonLines(text: string): RecordRead[] {
  const out: RecordRead[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const row = out.length + 1;
    try {
      out.push({ row, value: JSON.parse(line) as unknown, issues: [] });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      out.push({
        row,
        value: null,
        issues: [{ type: 'json_invalid', loc: at(row), msg: 'JSON decode error', input: line, ctx: { error: message } }],
      });
    }
  }
  return out;
}

const REGION = /^([A-Za-z]{2})(?::(\d*))?(?::(physical|remote)?)?$/;

/**
 * The CSV spelling of regions: `CA:12:physical;NY:3;TX::remote` — a code, then optionally the employee count (empty:
 * not known), then optionally `physical` (a physical location there) or `remote` (none).
 */
export function parseRegions(text: string, row: number): { regions: unknown[]; issues: ValidationIssue[] } {
  const regions: unknown[] = [];
  const issues: ValidationIssue[] = [];
  text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .forEach((part, index) => {
      const match = REGION.exec(part);
      if (!match) {
        const msg = "Value error, expected CODE[:EMPLOYEES[:physical|remote]], e.g. 'CA:12:physical'";
        issues.push({ type: 'value_error', loc: at(row, 'regions', index), msg, input: part });
        return;
      }
      const [, code, count, presence] = match;
      regions.push({
        code: code!.toUpperCase(),
        ...(count !== undefined && count !== '' && { employee_count: Number(count) }),
        ...(presence && { has_physical_location: presence === 'physical' }),
      });
    });
  return { regions, issues };
}

/** A CSV record (header → cell) as the JSON row: empty cells absent, `a.b` columns nested, `regions` parsed. */
export function csvRecordToRow(record: Record<string, string>, row: number): RecordRead {
  const value: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [column, cell] of Object.entries(record)) {
    if (cell === undefined || cell === '') continue;
    const name = column.trim();
    if (name === 'regions') {
      const parsed = parseRegions(cell, row);
      value.regions = parsed.regions;
      issues.push(...parsed.issues);
    } else if (name.includes('.')) {
      const [parent, child] = name.split('.', 2) as [string, string];
      const nested = (value[parent] ??= {}) as Record<string, unknown>;
      nested[child] = cell;
    } else value[name] = cell;
  }
  return { row, value, issues };
}

function readCsv(text: string): RecordRead[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (error) {
    throw new UnreadableFileError(error instanceof Error ? error.message : String(error));
  }
  return records.map((record, index) => csvRecordToRow(record, index + 1));
}

export function readRecords(format: ImportFormat, text: string): RecordRead[] {
  return format === 'csv' ? readCsv(text) : readJsonLines(text);
}

/** A row after validation: the row itself, or its errors. */
export interface CheckedRow {
  row: number;
  externalId: string | null;
  value: ImportRow | null;
  issues: ValidationIssue[];
}

const validateRow = compile(ImportRowSchema as never);

/**
 * Every row checked on its own, as POST /v2/signup checks its body (loc `["row", n, field]`), and against the file: an
 * external_company_id already on an earlier row, a region twice in one row.
 */
export function checkRows(records: RecordRead[]): CheckedRow[] {
  const seen = new Map<string, number>();
  return records.map(({ row, value, issues: readIssues }) => {
    const issues = [...readIssues];
    const valid = readIssues.length ? null : (validateRow(value, at(row), issues) as ImportRow);
    const externalId =
      typeof (value as { external_company_id?: unknown } | null)?.external_company_id === 'string'
        ? (value as { external_company_id: string }).external_company_id
        : null;
    if (valid && issues.length === 0) {
      const earlier = seen.get(valid.external_company_id);
      if (earlier !== undefined) {
        const msg = `Value error, external_company_id '${valid.external_company_id}' is on row ${earlier} already`;
        issues.push({ type: 'value_error', loc: at(row, 'external_company_id'), msg, input: valid.external_company_id });
      } else seen.set(valid.external_company_id, row);
      const codes = (valid.regions ?? []).map((r) => r.code);
      codes.forEach((code, index) => {
        if (codes.indexOf(code) !== index)
          issues.push({
            type: 'value_error',
            loc: at(row, 'regions', index, 'code'),
            msg: `Value error, region ${code} is given twice`,
            input: code,
          });
      });
    }
    return { row, externalId, value: issues.length ? null : valid, issues };
  });
}
