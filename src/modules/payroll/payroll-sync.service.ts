import type { Db } from '../../db/database.js';
import { regionByCode, regionById, type Region } from '../../catalog/regions.js';
import type { AccessScope } from '../../http/principals.js';
import { ConflictError, InvalidInputError } from '../../lib/errors.js';
import type { PayrollConnectionStore } from '../legal-entities/contract.js';
import { locationEvent, type EntityLocation, type LocationsService } from '../locations/contract.js';
import type { Replanner } from '../planning/contract.js';
import { employeeChanges, firstRepeatedRegion } from './payroll-sync.fns.js';

export const NOT_CONNECTED =
  'Payroll is not connected for this legal entity: the business owner connects it on the page of POST /v2/auth/payroll';

/** One region of `PUT /v2/payroll/employees`, as received (a two-letter code the schema checked). */
export interface EmployeesReportItem {
  region: string;
  employee_count: number;
}

export interface PayrollSyncResult {
  legalEntityId: string;
  /** Every location of the entity after the sync, in region order. */
  locations: EntityLocation[];
  /** Locations this report added (employees in a region the entity had no location in). */
  added: Region[];
  /** Locations the entity had whose employee settings this report changed. */
  updated: Region[];
  lastPayrollUpdate: Date;
}

export interface PayrollSyncDeps {
  /** Opens the transaction; queries go through the other modules' services and ports. */
  db: Db;
  /** The connection's columns of legal_entities, which the legal-entities module owns (its port, given by app.ts). */
  connections: Pick<PayrollConnectionStore, 'connectionForUpdate' | 'recordSync'>;
  locations: Pick<LocationsService, 'lockAllIn' | 'setEmployeesFromPayrollIn'>;
  planning: Replanner;
  now: () => Date;
}

/**
 * The platform, as the payroll system, reports where the entity's employees are: the whole picture, applied
 * in one transaction under the planning lock, with one re-planning when anything changed.
 */
export function createPayrollSyncService(deps: PayrollSyncDeps) {
  return {
    async reportEmployees(scope: AccessScope, report: EmployeesReportItem[]): Promise<PayrollSyncResult> {
      const reported = report.map((item) => ({ regionId: regionByCode(item.region)!.id, employeeCount: item.employee_count }));
      const repeated = firstRepeatedRegion(reported);
      if (repeated !== null) {
        const code = report[repeated]!.region;
        throw new InvalidInputError(
          ['regions', repeated, 'region'],
          `region ${code} is reported more than once; report each region once with all its employees`,
          code,
        );
      }
      const legalEntityId = scope.legalEntityId;
      const { value } = await deps.planning.change([legalEntityId], async (trx) => {
        if (!(await deps.connections.connectionForUpdate(trx, legalEntityId)).payroll_connected_at) throw new ConflictError(NOT_CONNECTED);
        const before = await deps.locations.lockAllIn(trx, legalEntityId);
        const changes = employeeChanges(
          before.map((l) => ({ regionId: l.region.id, hasEmployees: l.config.has_employees, employeeCount: l.config.employee_count })),
          reported,
        );
        for (const change of changes)
          await deps.locations.setEmployeesFromPayrollIn(trx, legalEntityId, change.regionId, change.employeeCount);
        // Every accepted report is a sync, even one that confirms the picture: the time says how fresh it is.
        const at = deps.now();
        await deps.connections.recordSync(trx, legalEntityId, at);
        const after = changes.length > 0 ? await deps.locations.lockAllIn(trx, legalEntityId) : before;
        // One location.updated per location the report added or changed, recorded with the re-planning's task events.
        const events = changes.flatMap((c) => {
          const location = after.find((l) => l.region.id === c.regionId);
          const event = location && locationEvent(scope, c.add ? null : before.find((l) => l.region.id === c.regionId)!.config, location);
          return event ? [event] : [];
        });
        const result: PayrollSyncResult = {
          legalEntityId,
          locations: after,
          added: changes.filter((c) => c.add).map((c) => regionById(c.regionId)!),
          updated: changes.filter((c) => !c.add).map((c) => regionById(c.regionId)!),
          lastPayrollUpdate: at,
        };
        // A report that confirms the picture re-plans nothing.
        return { value: result, cause: { events }, replan: changes.length > 0 };
      });
      return value;
    },
  };
}

export type PayrollSyncService = ReturnType<typeof createPayrollSyncService>;
