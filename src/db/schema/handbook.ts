/** Row types of the employee handbook (src/modules/handbook/). */
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './columns.js';

/** An answer to a handbook question. */
export type HandbookAnswer = boolean | number | string;
/** The owner's choice for an optional policy. */
export type PolicyChoice = 'adopt' | 'skip';

export interface HandbookDraftsTable {
  legal_entity_id: string;
  answers: ColumnType<Record<string, HandbookAnswer>, string | undefined, string>;
  choices: ColumnType<Record<string, PolicyChoice>, string | undefined, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface HandbookEmployeesTable {
  legal_entity_id: string;
  id: string;
  name: string;
  email: string | null;
  created_at: CreatedAt;
  removed_at: Date | null;
}

export interface HandbookVersionsTable {
  legal_entity_id: string;
  id: string;
  number: number;
  /** The HandbookDocument (src/pages/handbook-document.ts) as published. */
  document: ColumnType<unknown, string, never>;
  regions: ColumnType<string[], string[], never>;
  published_at: ColumnType<Date, Date | undefined, never>;
}

export interface HandbookAcknowledgementsTable {
  legal_entity_id: string;
  employee_id: string;
  version_id: string;
  typed_name: string;
  acknowledged_at: ColumnType<Date, Date | undefined, never>;
}

export interface HandbookAckLinksTable {
  token_hash: Buffer;
  legal_entity_id: string;
  employee_id: string;
  version_id: string;
  created_at: CreatedAt;
}
