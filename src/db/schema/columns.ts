/** Column types shared by the table row types of src/db/schema/. */
import type { ColumnType } from 'kysely';

export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** PostgreSQL `date` columns are read as 'YYYY-MM-DD' strings (see database.ts). */
export type DateString = string;
