import type { Db } from '../../db/database.js';
import type { LocationAddedBy, LocationRow } from '../../db/schema.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { REGIONS, regionByCode, resolveRegion, type Region } from '../../catalog/regions.js';
import type { AccessScope } from '../../http/principals.js';
import type { NewEvent } from '../events/contract.js';
import type { Replanner } from '../planning/contract.js';
import { locationEvent } from './locations.events.js';
import { applyConfigChange, changesEmployees, isProblem, type LocationConfigChange, type LocationConfigState } from './locations.fns.js';
import { createLocationsRepository, type LocationsRepository } from './locations.repository.js';

export interface EntityLocation {
  region: Region;
  config: LocationConfigState;
  addedBy: LocationAddedBy;
}

const PAYROLL_LOCK =
  'has_employees cannot be changed once payroll is connected for this legal entity: payroll keeps the employee configuration in sync';

/** A location after a change, and the change's location.updated (null when nothing changed). */
export interface ConfiguredLocation {
  location: EntityLocation;
  event: NewEvent | null;
}

interface ConfigureOptions {
  create: boolean;
  /** Where the change sits in the operation's input (e.g. `['config']`): a refused fact is reported there. */
  inputPath: (string | number)[];
}

const regionOrder = new Map(REGIONS.map((r, index) => [r.id, index]));

function toEntityLocation(row: LocationRow): EntityLocation {
  return {
    region: resolveRegion(row.region_id)!,
    config: { has_employees: row.has_employees, has_physical_location: row.has_physical_location, employee_count: row.employee_count },
    addedBy: row.added_by,
  };
}

export interface LocationsDeps {
  /** Opens the transactions; queries go through the repository. */
  db: Db;
  /** Every change re-plans the entity's tasks in its transaction. */
  planning: Replanner;
  repositoryFor?: (db: Db) => LocationsRepository;
}

export function createLocationsService(deps: LocationsDeps) {
  const { db, planning } = deps;
  const repositoryFor = deps.repositoryFor ?? createLocationsRepository;

  function requireRegion(idOrCode: string): Region {
    const region = resolveRegion(idOrCode);
    if (!region) throw new NotFoundError(`Location '${idOrCode}' not found`);
    return region;
  }

  /**
   * Adds (when `create`) or updates one location under a row lock, inside the caller's transaction;
   * refuses employee changes once payroll is connected. Does not re-plan: the caller does, once.
   */
  async function configureIn(
    trx: Db,
    scope: AccessScope,
    region: Region,
    change: LocationConfigChange,
    options: ConfigureOptions,
  ): Promise<ConfiguredLocation> {
    const repo = repositoryFor(trx);
    const added = options.create && (await repo.ensureLocation(scope.legalEntityId, region.id));
    const row = await repo.findLocationForUpdate(scope.legalEntityId, region.id);
    if (!row) {
      // The wire text names the operation that adds a location (kept as documented; see
      // docs/decisions/0018-planning-one-owner-of-re-planning.md).
      throw new NotFoundError(
        `Location '${region.code}' has not been added to this legal entity; add it first with PUT /locations/${region.id}`,
      );
    }
    const current = toEntityLocation(row).config;
    const next = applyConfigChange(current, change);
    if (isProblem(next)) throw new InvalidInputError([...options.inputPath, next.field], next.message, change[next.field]);
    if (changesEmployees(current, next) && (await repo.isPayrollConnected(scope.legalEntityId))) throw new ConflictError(PAYROLL_LOCK);
    const location = toEntityLocation(await repo.upsertLocation(scope.legalEntityId, region.id, next));
    return { location, event: locationEvent(scope, added ? null : current, location) };
  }

  /** One transaction: planning lock, the changes, one re-planning that records their events with its own. */
  const changeAndReplan = async (scope: AccessScope, change: (trx: Db) => Promise<ConfiguredLocation[]>): Promise<EntityLocation[]> =>
    (
      await planning.change([scope.legalEntityId], async (trx) => {
        const results = await change(trx);
        return { value: results.map((r) => r.location), cause: { events: results.flatMap((r) => (r.event ? [r.event] : [])) } };
      })
    ).value;

  const configure = async (scope: AccessScope, region: Region, change: LocationConfigChange, options: ConfigureOptions) =>
    (await changeAndReplan(scope, async (trx) => [await configureIn(trx, scope, region, change, options)]))[0]!;

  const inRegionOrder = (rows: LocationRow[]) =>
    rows.map(toEntityLocation).sort((a, b) => regionOrder.get(a.region.id)! - regionOrder.get(b.region.id)!);

  return {
    /** The entity's locations in the catalog's region order. */
    list: async (scope: AccessScope): Promise<EntityLocation[]> =>
      inRegionOrder(await repositoryFor(db).findLocations(scope.legalEntityId)),

    /** Payroll sync, inside its transaction: the entity's locations, row-locked, in region order. */
    lockAllIn: async (trx: Db, legalEntityId: string): Promise<EntityLocation[]> =>
      inRegionOrder(await repositoryFor(trx).findLocationsForUpdate(legalEntityId)),

    /**
     * Payroll sync, inside its transaction: sets one location's employee settings from a payroll report,
     * adding the location (marked as added by payroll) when missing. This is the writer the payroll lock of
     * the manual operations leaves in charge; `has_physical_location` is not payroll's and stays. The caller
     * holds the planning lock and re-plans.
     */
    setEmployeesFromPayrollIn: (trx: Db, legalEntityId: string, regionId: string, employeeCount: number): Promise<void> =>
      repositoryFor(trx)
        .setEmployeesFromPayroll(legalEntityId, regionId, employeeCount)
        .then(() => undefined),

    /** PUT /locations/{id}: input `{config}`. */
    add: (scope: AccessScope, idOrCode: string, change: LocationConfigChange | null) =>
      configure(scope, requireRegion(idOrCode), change ?? {}, { create: true, inputPath: ['config'] }),

    /** PATCH /locations/{id}: input `{config}`. */
    update: (scope: AccessScope, idOrCode: string, change: LocationConfigChange | null) =>
      configure(scope, requireRegion(idOrCode), change ?? {}, { create: false, inputPath: ['config'] }),

    /**
     * Applies a location fact inside the caller's transaction (a question's answer, PATCH /v2/tasks/questions/{id}),
     * with the same rules as PATCH /locations/{id}; the caller re-plans, recording the returned event with it.
     */
    updateIn: (trx: Db, scope: AccessScope, idOrCode: string, change: LocationConfigChange) =>
      configureIn(trx, scope, requireRegion(idOrCode), change, { create: false, inputPath: ['config'] }),

    /**
     * Changes several existing locations at once, all or nothing, in one transaction and one re-planning (the
     * handbook builder's employee counts). A refusal names the location's code first in its path.
     */
    updateMany: (scope: AccessScope, changes: Record<string, LocationConfigChange>) =>
      changeAndReplan(scope, async (trx) => {
        const codes = Object.keys(changes).sort((a, b) => regionOrder.get(requireRegion(a).id)! - regionOrder.get(requireRegion(b).id)!);
        const results: ConfiguredLocation[] = [];
        for (const code of codes)
          results.push(await configureIn(trx, scope, requireRegion(code), changes[code]!, { create: false, inputPath: [code] }));
        return results;
      }),

    /**
     * Imports (docs/imports.md), inside the caller's `planning.change`: adds (or updates) each given region with the
     * rules of PUT /locations/{id}, in catalog order; answers the locations and their events for the caller to record.
     */
    addManyIn: async (trx: Db, scope: AccessScope, changes: Record<string, LocationConfigChange>): Promise<ConfiguredLocation[]> => {
      const codes = Object.keys(changes).sort((a, b) => regionOrder.get(requireRegion(a).id)! - regionOrder.get(requireRegion(b).id)!);
      const results: ConfiguredLocation[] = [];
      for (const code of codes)
        results.push(await configureIn(trx, scope, requireRegion(code), changes[code]!, { create: true, inputPath: ['regions', code] }));
      return results;
    },

    /** PUT /v2/regions/{region}: input `{employee_count}`; adds the region and sets its employee count. */
    setRegion: (scope: AccessScope, code: string, employeeCount: number | null) =>
      configure(scope, regionByCode(code)!, { employee_count: employeeCount }, { create: true, inputPath: [] }),

    /** POST /v2/regions: input `{config: {code: …}}`; all or nothing, in one transaction. */
    setRegions: (scope: AccessScope, config: Record<string, { employee_count: number | null }>) =>
      changeAndReplan(scope, async (trx) => {
        // Lock rows in one fixed (catalog) order so concurrent batches cannot deadlock.
        const codes = Object.keys(config).sort((a, b) => regionOrder.get(regionByCode(a)!.id)! - regionOrder.get(regionByCode(b)!.id)!);
        const results: ConfiguredLocation[] = [];
        for (const code of codes) {
          const change = { employee_count: config[code]!.employee_count };
          results.push(await configureIn(trx, scope, regionByCode(code)!, change, { create: true, inputPath: ['config', code] }));
        }
        return results;
      }),
  };
}

export type LocationsService = ReturnType<typeof createLocationsService>;
