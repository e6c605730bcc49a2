import type { Db } from '../../db/database.js';
import type { LocationRow } from '../../db/schema.js';
import { ConflictError, NotFoundError, fieldError } from '../../lib/errors.js';
import { REGIONS, regionByCode, resolveRegion, type Region } from '../../catalog/regions.js';
import type { AccessScope } from '../../http/principals.js';
import { applyConfigChange, changesEmployees, isProblem, type LocationConfigChange, type LocationConfigState } from './locations.fns.js';
import { createLocationsRepository } from './locations.repository.js';

export interface EntityLocation {
  region: Region;
  config: LocationConfigState;
}

const PAYROLL_LOCK =
  'has_employees cannot be changed once payroll is connected for this legal entity: payroll keeps the employee configuration in sync';

interface ConfigureOptions {
  create: boolean;
  bodyLoc: (string | number)[];
}

const regionOrder = new Map(REGIONS.map((r, index) => [r.id, index]));

function toEntityLocation(row: LocationRow): EntityLocation {
  return {
    region: resolveRegion(row.region_id)!,
    config: { has_employees: row.has_employees, has_physical_location: row.has_physical_location, employee_count: row.employee_count },
  };
}

export function createLocationsService(db: Db, options: { onChange?: (legalEntityId: string) => Promise<unknown> } = {}) {
  const repo = createLocationsRepository(db);

  function requireRegion(idOrCode: string): Region {
    const region = resolveRegion(idOrCode);
    if (!region) throw new NotFoundError(`Location '${idOrCode}' not found`);
    return region;
  }

  /**
   * Adds (when `create`) or updates one location under a row lock; refuses employee
   * changes once payroll is connected. `bodyLoc` places a 422 inside the request body.
   */
  async function configureIn(trx: Db, scope: AccessScope, region: Region, change: LocationConfigChange, options: ConfigureOptions) {
    const txRepo = createLocationsRepository(trx);
    if (options.create) await txRepo.ensureLocation(scope.legalEntityId, region.id);
    const row = await txRepo.findLocationForUpdate(scope.legalEntityId, region.id);
    if (!row) {
      throw new NotFoundError(`Location '${region.code}' has not been added to this legal entity; add it first with PUT /locations/${region.id}`);
    }
    const current = toEntityLocation(row).config;
    const next = applyConfigChange(current, change);
    if (isProblem(next)) {
      const loc = [...options.bodyLoc, next.field];
      throw fieldError(loc, next.message, change[next.field]);
    }
    if (changesEmployees(current, next) && (await txRepo.isPayrollConnected(scope.legalEntityId))) throw new ConflictError(PAYROLL_LOCK);
    return toEntityLocation(await txRepo.upsertLocation(scope.legalEntityId, region.id, next));
  }

  const changed = async <T>(scope: AccessScope, result: T): Promise<T> => {
    await options.onChange?.(scope.legalEntityId);
    return result;
  };

  const configure = async (scope: AccessScope, region: Region, change: LocationConfigChange, configureOptions: ConfigureOptions) =>
    changed(scope, await db.transaction().execute((trx) => configureIn(trx, scope, region, change, configureOptions)));

  return {
    /** The entity's locations in the catalog's region order. */
    async list(scope: AccessScope): Promise<EntityLocation[]> {
      const rows = await repo.findLocations(scope.legalEntityId);
      return rows.map(toEntityLocation).sort((a, b) => regionOrder.get(a.region.id)! - regionOrder.get(b.region.id)!);
    },

    add: (scope: AccessScope, idOrCode: string, change: LocationConfigChange | null) =>
      configure(scope, requireRegion(idOrCode), change ?? {}, { create: true, bodyLoc: ['body', 'config'] }),

    update: (scope: AccessScope, idOrCode: string, change: LocationConfigChange | null) =>
      configure(scope, requireRegion(idOrCode), change ?? {}, { create: false, bodyLoc: ['body', 'config'] }),

    /** PUT /v2/regions/{region}: adds the region and sets its employee count. */
    setRegion: (scope: AccessScope, code: string, employeeCount: number | null) =>
      configure(scope, regionByCode(code)!, { employee_count: employeeCount }, { create: true, bodyLoc: ['body'] }),

    /** POST /v2/regions: all or nothing, in one transaction. */
    setRegions: async (scope: AccessScope, config: Record<string, { employee_count: number | null }>) =>
      changed(scope, await db.transaction().execute(async (trx) => {
        // Lock rows in one fixed (catalog) order so concurrent batches cannot deadlock.
        const codes = Object.keys(config).sort((a, b) => regionOrder.get(regionByCode(a)!.id)! - regionOrder.get(regionByCode(b)!.id)!);
        const results: EntityLocation[] = [];
        for (const code of codes) {
          const change = { employee_count: config[code]!.employee_count };
          results.push(await configureIn(trx, scope, regionByCode(code)!, change, { create: true, bodyLoc: ['body', 'config', code] }));
        }
        return results;
      })),

  };
}

export type LocationsService = ReturnType<typeof createLocationsService>;
