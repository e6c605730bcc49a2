/** Row types of the tables of legal entities, their locations and their tasks. */
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt, DateString } from './columns.js';

export interface AddressValue {
  id: string | null;
  address_line_1: string;
  address_line_2: string | null;
  city: string;
  state: string;
  country: string;
  postal_code: string;
}

export interface LegalEntitiesTable {
  id: string;
  platform_id: string;
  status: 'inactive' | 'active';
  business_name: string;
  user_email: string | null;
  entity_type: string | null;
  tax_classification: string | null;
  incorporation_region: string | null;
  incorporation_date: DateString | null;
  ein: string | null;
  llc_managed_type: string | null;
  business_purpose: string | null;
  business_phone: string | null;
  business_email: string | null;
  business_address: ColumnType<AddressValue | null, string | null, string | null>;
  mailing_address: ColumnType<AddressValue | null, string | null, string | null>;
  naics_code: string | null;
  accounting_method: string | null;
  accounting_period: string | null;
  accounting_year_end: number | null;
  futa_liability_year: string | null;
  external_company_id: string | null;
  authorization_callback_url: string | null;
  payroll_connected_at: Date | null;
  last_payroll_update: Date | null;
  activated_at: Date | null;
  signup_step: ColumnType<string | null, string | null | undefined, string | null>;
  /** The hosted signup's steps the owner has saved; the others were filled in by the platform, if at all. */
  signup_confirmed_steps: ColumnType<string[], string[] | undefined, string[]>;
  /** The day its planning window next gains an occurrence; null: not yet planned since the roll-forward became incremental (due). */
  next_replan_on: ColumnType<DateString | null, DateString | null | undefined, DateString | null>;
  /** catalog_versions.revision it was last planned with; null: due. */
  catalog_revision: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Each catalog content the installation planned with, numbered in the order it was first seen. */
export interface CatalogVersionsTable {
  revision: Generated<number>;
  hash: string;
  first_seen_at: Generated<Date>;
  /** The catalog release this content is (catalog/releases/); null: a build with unreleased changes. */
  release_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Each catalog release the installation ran, once (its first run recorded `catalog.released`). */
export interface CatalogReleasesTable {
  id: string;
  revision: number;
  first_seen_at: Generated<Date>;
}

export interface LegalEntityLocationsTable {
  legal_entity_id: string;
  region_id: string;
  has_employees: boolean | null;
  has_physical_location: boolean | null;
  employee_count: number | null;
  /** 'payroll' when a payroll report added the location (PUT /v2/payroll/employees). */
  added_by: Generated<LocationAddedBy>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type LocationAddedBy = 'api' | 'payroll';

export interface TasksTable {
  id: string;
  legal_entity_id: string;
  kind: 'requirement' | 'question';
  definition_id: string;
  region_code: string;
  period_key: string;
  period_start_date: DateString | null;
  period_end_date: DateString | null;
  due_date: DateString | null;
  /** How the due date was found (the rule in words); null without a due date. */
  due_date_rule: ColumnType<string | null, string | null | undefined, string | null>;
  /** false while the date is estimated (a fact it depends on is unknown); null without a due date. */
  due_date_exact: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  /** The question whose answer makes an estimated due date exact. */
  due_date_question: ColumnType<string | null, string | null | undefined, string | null>;
  status: Generated<'todo' | 'in-progress' | 'done' | 'dismissed'>;
  answer: ColumnType<unknown, string | null | undefined, string | null>;
  criteria_met: ColumnType<{ key: string; reason: string; data: Record<string, unknown> }[], string, string>;
  blocked_by: ColumnType<string[], string, string>;
  applicable: Generated<boolean>;
  acted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  completed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** 0 at creation, +1 at every update that changes the row (a trigger; the calendar's SEQUENCE). */
  revision: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
