/** A location's configuration as stored. null means "not known". */
export interface LocationConfigState {
  has_employees: boolean | null;
  has_physical_location: boolean | null;
  employee_count: number | null;
}

/** A requested change; an absent key leaves that setting as it is. */
export type LocationConfigChange = Partial<LocationConfigState>;

export const EMPTY_CONFIG: LocationConfigState = { has_employees: null, has_physical_location: null, employee_count: null };

export type ConfigProblem = { field: keyof LocationConfigState; message: string };

/**
 * Applies a change, keeping `has_employees` and `employee_count` consistent:
 * a count decides `has_employees` (count > 0); `has_employees: false` means a count of 0;
 * `has_employees: true` turns a known count of 0 into "unknown".
 */
export function applyConfigChange(current: LocationConfigState, change: LocationConfigChange): LocationConfigState | ConfigProblem {
  const next: LocationConfigState = { ...current };
  if (change.has_physical_location !== undefined) next.has_physical_location = change.has_physical_location;
  const count = change.employee_count;
  if (count !== undefined && count !== null) {
    if (change.has_employees === false && count > 0) {
      return { field: 'employee_count', message: 'employee_count must be 0 when has_employees is false' };
    }
    if (change.has_employees === true && count === 0) {
      return { field: 'employee_count', message: 'employee_count must be greater than 0 when has_employees is true' };
    }
    next.employee_count = count;
    next.has_employees = count > 0;
    return next;
  }
  if (count === null) next.employee_count = null;
  if (change.has_employees !== undefined) {
    next.has_employees = change.has_employees;
    if (change.has_employees === false) next.employee_count = 0;
    else if (change.has_employees === null || next.employee_count === 0) next.employee_count = null;
  }
  return next;
}

export const isProblem = (value: LocationConfigState | ConfigProblem): value is ConfigProblem => 'message' in value;

/** Once payroll is connected it owns the employee settings. */
export function changesEmployees(before: LocationConfigState, after: LocationConfigState): boolean {
  return before.has_employees !== after.has_employees || before.employee_count !== after.employee_count;
}
