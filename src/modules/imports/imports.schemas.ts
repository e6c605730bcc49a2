// The wire shapes of the imports of a platform's book (docs/imports.md): a row of the file, an import, its rows.
import { Type, type Static } from 'typebox';
import { BoundedString, Nullable, StringEnum, ValidationIssueSchema } from '../../http/schemas.js';
import { PlatformSignupRequestSchema, StateCode } from '../legal-entities/contract.js';

/** The most rows and bytes one import takes (above: 413). */
export const MAX_IMPORT_ROWS = 50_000;
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
export const MAX_ROWS_PAGE = 1000;
export const MAX_IMPORTS_PAGE = 100;

export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'completed_with_errors', 'failed'] as const;
export const ROW_STATUSES = ['pending', 'created', 'unchanged', 'failed'] as const;

export const ImportRegionSchema = Type.Object(
  {
    code: StateCode,
    employee_count: Type.Optional(
      Nullable(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Employees in the region; null: not known.' })),
    ),
    has_physical_location: Type.Optional(Nullable(Type.Boolean({ description: 'An office, store or warehouse there; null: not known.' }))),
  },
  { title: 'ImportRegion' },
);

/** One business of the file: the POST /v2/signup body, its external id (required), its regions and its status. */
export const ImportRowSchema = Type.Object(
  {
    ...PlatformSignupRequestSchema.properties,
    external_company_id: BoundedString(200, {
      minLength: 1,
      description: "The platform's id of the business: what makes a re-run idempotent.",
    }),
    status: Type.Optional(
      Nullable(
        StringEnum(['inactive', 'active'] as const, {
          description: '`active`: onboarded elsewhere, no hosted signup needed. Default `inactive` (as POST /v2/signup).',
        }),
      ),
    ),
    regions: Type.Optional(Type.Array(ImportRegionSchema, { maxItems: 60 })),
  },
  { title: 'ImportRow' },
);
export type ImportRow = Static<typeof ImportRowSchema>;

const Timestamp = Type.String({ format: 'date-time' });

export const ImportCountsSchema = Type.Object(
  {
    total: Type.Integer({ description: 'Rows in the file.' }),
    created: Type.Integer({ description: 'Rows that created a legal entity.' }),
    unchanged: Type.Integer({ description: 'Rows whose legal entity existed already with the same data.' }),
    failed: Type.Integer({ description: 'Rows refused (invalid, or in conflict with an existing entity): see their errors.' }),
    pending: Type.Integer({ description: 'Rows not processed yet.' }),
  },
  { title: 'ImportCounts' },
);

export const ImportSchema = Type.Object(
  {
    id: Type.String(),
    status: StringEnum(IMPORT_STATUSES, {
      description:
        '`queued`, `running`, then `succeeded` (every row created or unchanged) or `completed_with_errors` (some rows failed); ' +
        '`failed` when the import could not run at all.',
    }),
    format: StringEnum(['csv', 'jsonl'] as const),
    counts: ImportCountsSchema,
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
  },
  { title: 'Import' },
);
export type ImportView = Static<typeof ImportSchema>;

export const ImportRowResultSchema = Type.Object(
  {
    row: Type.Integer({ description: 'The row number in the file (1: the first business; a CSV header is not counted).' }),
    external_company_id: Nullable(Type.String()),
    status: StringEnum(ROW_STATUSES),
    legal_entity_id: Nullable(Type.String({ description: 'The entity created, or found unchanged.' })),
    errors: Type.Array(ValidationIssueSchema, { description: 'Why the row failed, in the 422 item shape; loc starts with ["row", n].' }),
  },
  { title: 'ImportRowResult' },
);
export type ImportRowResultView = Static<typeof ImportRowResultSchema>;

export const ImportWithRowsSchema = Type.Object(
  { ...ImportSchema.properties, rows: Type.Array(ImportRowResultSchema, { description: 'One page of the rows, in file order.' }) },
  { title: 'ImportWithRows' },
);

export const ImportParamsSchema = Type.Object({ import_id: BoundedString(64, { description: 'The import (`imp_…`).' }) });

export const ImportRowsQuerySchema = Type.Object({
  status: Type.Optional(StringEnum(ROW_STATUSES, { description: 'Only rows with this result.' })),
  starting_after: Type.Optional(Type.Integer({ minimum: 0, description: 'The last row number of the previous page.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ROWS_PAGE, default: 100, description: 'Rows per page.' })),
});

export const ListImportsQuerySchema = Type.Object({
  starting_after: Type.Optional(BoundedString(64, { description: 'The last import of the previous page.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_IMPORTS_PAGE, default: 20, description: 'Imports per page.' })),
});
