import { NotFoundError } from '../lib/errors.js';
import { Type } from 'typebox';
import type { AccessScope } from './principals.js';
import { BoundedString, Nullable } from './schemas.js';

/**
 * The reference's /v2 reads declare optional legal_entity_public_id, user_or_platform_public_id
 * and platform_public_id query parameters. The token already fixes the scope, so they can only
 * narrow it: naming another entity or platform is a 404, never a way around the token.
 */
export function assertV2Scope(
  scope: AccessScope,
  query: { legal_entity_public_id?: string | null; platform_public_id?: string | null; user_or_platform_public_id?: string | null },
): void {
  const entity = query.legal_entity_public_id;
  if (entity && entity !== scope.legalEntityId) throw new NotFoundError(`Legal entity '${entity}' not found`);
  for (const platform of [query.platform_public_id, query.user_or_platform_public_id]) {
    if (platform && platform !== scope.platformId) throw new NotFoundError(`Platform '${platform}' not found`);
  }
}

/** The optional scope parameters of the reference's /v2 reads (see assertV2Scope). */
export const V2ScopeQuerySchema = Type.Object({
  legal_entity_public_id: Type.Optional(Nullable(BoundedString(64))),
  user_or_platform_public_id: Type.Optional(Nullable(BoundedString(64))),
  platform_public_id: Type.Optional(Nullable(BoundedString(64))),
});
