// location.updated: a location as the API answers it (GET /locations), with the fields that changed.
import type { AccessScope } from '../../http/principals.js';
import type { NewEvent } from '../events/contract.js';
import type { LocationConfigState } from './locations.fns.js';
import type { Region } from '../../catalog/regions.js';

/** A location as its events show it (locations.service's EntityLocation, named here so the service alone imports this file). */
interface EntityLocation {
  region: Region;
  config: LocationConfigState;
}

const CONFIG_FIELDS = ['has_employees', 'has_physical_location', 'employee_count'] as const;

/** The AccountLegalEntityLocation shape of GET /locations. */
export const toLocation = ({ region, config }: EntityLocation) => ({
  location: { id: region.id, code: region.code, name: region.name },
  config,
});

/**
 * The event of one location's change, or null when nothing a platform sees changed. `before` null: the location
 * was added (`changed` then names `location` and the settings it was added with).
 */
export function locationEvent(scope: AccessScope, before: LocationConfigState | null, after: EntityLocation): NewEvent | null {
  const changed = [...(before ? [] : ['location']), ...CONFIG_FIELDS.filter((field) => (before?.[field] ?? null) !== after.config[field])];
  if (changed.length === 0) return null;
  return {
    type: 'location.updated',
    platformId: scope.platformId,
    legalEntityId: scope.legalEntityId,
    data: { object: toLocation(after), changed },
  };
}
