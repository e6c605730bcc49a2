/** One region of a payroll report: all current employees who live or work there (0: none). */
export interface ReportedRegion {
  regionId: string;
  employeeCount: number;
}

/** What payroll may change of a location the entity has. */
export interface LocationEmployees {
  regionId: string;
  hasEmployees: boolean | null;
  employeeCount: number | null;
}

/** A location whose employee settings a report changes; `add` when the entity has no location there yet. */
export interface EmployeeChange {
  regionId: string;
  employeeCount: number;
  add: boolean;
}

/** The index of the first item naming a region an earlier item named, or null. */
export function firstRepeatedRegion(report: readonly ReportedRegion[]): number | null {
  const seen = new Set<string>();
  for (const [index, item] of report.entries()) {
    if (seen.has(item.regionId)) return index;
    seen.add(item.regionId);
  }
  return null;
}

/**
 * The report is the whole picture: a reported region gets its count (`has_employees` = count > 0), a
 * region with employees and no location gets one, a location the report leaves out has no employees. A
 * reported zero where the entity has no location adds nothing, and locations are never removed. Only
 * what differs is returned, so the same report twice changes nothing the second time. Regions appear in
 * the order of `locations` first, then of the report.
 */
export function employeeChanges(locations: readonly LocationEmployees[], report: readonly ReportedRegion[]): EmployeeChange[] {
  const reported = new Map(report.map((item) => [item.regionId, item.employeeCount]));
  const changes: EmployeeChange[] = [];
  for (const location of locations) {
    const count = reported.get(location.regionId) ?? 0;
    if (location.hasEmployees !== count > 0 || location.employeeCount !== count) {
      changes.push({ regionId: location.regionId, employeeCount: count, add: false });
    }
  }
  const known = new Set(locations.map((l) => l.regionId));
  for (const item of report) {
    if (!known.has(item.regionId) && item.employeeCount > 0)
      changes.push({ regionId: item.regionId, employeeCount: item.employeeCount, add: true });
  }
  return changes;
}
