// legal_entity.signup_completed and legal_entity.updated: the entity as GET /v2/legal_entity answers it.
import type { LegalEntityRow } from '../../db/schema.js';
import type { NewEvent } from '../events/contract.js';
import { toPlatformLegalEntity } from './legal-entities.fns.js';

/**
 * The events of one change of an existing entity: signup_completed when it became active (the hosted signup's
 * last step, or an operator's activation), else updated with the v2 fields that differ; none when nothing a
 * platform sees changed. A new entity has none: the platform created it.
 */
export function legalEntityEvents(before: LegalEntityRow | undefined, after: LegalEntityRow): NewEvent[] {
  if (!before) return [];
  const object = toPlatformLegalEntity(after);
  const base = { platformId: after.platform_id, legalEntityId: after.id };
  if (before.status !== 'active' && after.status === 'active')
    return [{ ...base, type: 'legal_entity.signup_completed', data: { object } }];
  const previous: Record<string, unknown> = toPlatformLegalEntity(before);
  const changed = Object.entries(object)
    .filter(([field, value]) => JSON.stringify(previous[field]) !== JSON.stringify(value))
    .map(([field]) => field);
  return changed.length ? [{ ...base, type: 'legal_entity.updated', data: { object, changed } }] : [];
}
