// Pure rules of an import: a row as a signup profile and regions, what differs from an existing entity, a refusal as
// the row's errors.
import type { LegalEntityRow } from '../../db/schema.js';
import { HttpError, InvalidInputError, RequestValidationError, type ValidationIssue } from '../../lib/errors.js';
import { profileFromV2, type EntityProfile, type PlatformSignupRequest } from '../legal-entities/contract.js';
import type { EntityLocation, LocationConfigChange } from '../locations/contract.js';
import type { ImportRow } from './imports.schemas.js';

/** The row's signup profile (as POST /v2/signup reads its body) and its regions' settings by code. */
export function rowToChange(row: ImportRow): {
  profile: Partial<EntityProfile> & { business_name: string };
  regions: Record<string, LocationConfigChange>;
  active: boolean;
} {
  const { regions, status, ...signup } = row;
  const settings: Record<string, LocationConfigChange> = {};
  for (const region of regions ?? []) {
    settings[region.code] = {
      ...(region.employee_count !== undefined && region.employee_count !== null && { employee_count: region.employee_count }),
      ...(region.has_physical_location !== undefined &&
        region.has_physical_location !== null && { has_physical_location: region.has_physical_location }),
    };
  }
  return {
    profile: { ...profileFromV2(signup as PlatformSignupRequest), business_name: signup.business_name },
    regions: settings,
    active: status === 'active',
  };
}

const ADDRESS_FIELDS = ['address_line_1', 'address_line_2', 'city', 'state', 'country', 'postal_code'] as const;

/** An address's fields in one order (stored JSON keeps no order), its id only when the row gives one. */
const canonicalAddress = (value: unknown, withId: boolean) => {
  if (value === null || typeof value !== 'object') return value ?? null;
  const address = value as Record<string, unknown>;
  return [...(withId ? [address.id] : []), ...ADDRESS_FIELDS.map((field) => address[field] ?? null)];
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A field of a row that differs from the existing entity: where in the row, and the row's value. */
export interface Difference {
  path: (string | number)[];
  input: unknown;
}

/**
 * What a row says that the existing entity (found by its external_company_id) does not: profile fields it gives,
 * `status: active` of an entity still inactive, a region missing or with other settings. Fields the row leaves out,
 * or gives as unknown (null settings), are not compared. None: the row is unchanged.
 */
export function differences(row: ImportRow, entity: LegalEntityRow, locations: readonly EntityLocation[]): Difference[] {
  const out: Difference[] = [];
  const { profile, regions } = rowToChange(row);
  const stored = entity as unknown as Record<string, unknown>;
  const rowFields = row as unknown as Record<string, unknown>;
  const wireName: Record<string, string> = { tax_classification: 'tax_class', incorporation_date: 'incorporated_date' };
  for (const [field, value] of Object.entries(profile)) {
    const address = field === 'business_address' || field === 'mailing_address';
    const givenId = address && (rowFields[field] as { id?: unknown } | null | undefined)?.id;
    const equal = address
      ? same(canonicalAddress(value, Boolean(givenId)), canonicalAddress(stored[field], Boolean(givenId)))
      : same(value, stored[field]);
    const name = wireName[field] ?? field;
    if (!equal) out.push({ path: [name], input: rowFields[name] ?? value });
  }
  if (row.status === 'active' && entity.status !== 'active') out.push({ path: ['status'], input: row.status });
  const byCode = new Map(locations.map((l) => [l.region.code, l.config]));
  (row.regions ?? []).forEach((region, index) => {
    const config = byCode.get(region.code);
    const wanted = regions[region.code]!;
    const differs =
      !config ||
      (wanted.employee_count !== undefined && wanted.employee_count !== config.employee_count) ||
      (wanted.has_physical_location !== undefined && wanted.has_physical_location !== config.has_physical_location);
    if (differs) out.push({ path: ['regions', index], input: region });
  });
  return out;
}

/** The row's errors for the differences from an existing entity: an import never changes an entity it finds. */
export function conflictIssues(rowNumber: number, entityId: string, found: Difference[]): ValidationIssue[] {
  return found.map(({ path, input }) => ({
    type: 'conflict',
    loc: ['row', rowNumber, ...path],
    msg: `Differs from legal entity ${entityId}, which has this external_company_id; an import does not change an existing entity (use the API's operations)`,
    input,
  }));
}

/**
 * A refusal of a row's change as its errors: a validation error's items moved under the row, a rule's refusal at its
 * field, any other refusal (a conflict) at the row. Anything else is not the row's fault: null (the caller rethrows).
 */
export function refusalIssues(rowNumber: number, error: unknown): ValidationIssue[] | null {
  const at = (path: readonly (string | number)[]) => ['row', rowNumber, ...path];
  if (error instanceof RequestValidationError) return error.issues.map((issue) => ({ ...issue, loc: at(issue.loc.slice(1)) }));
  if (error instanceof InvalidInputError)
    return [
      { type: 'value_error', loc: at(error.path), msg: `Value error, ${error.reason}`, input: error.input, ctx: { error: error.reason } },
    ];
  if (error instanceof HttpError)
    return [{ type: error.status === 409 ? 'conflict' : 'refused', loc: at([]), msg: error.message, input: null }];
  return null;
}
