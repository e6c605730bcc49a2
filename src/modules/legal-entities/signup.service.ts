import type { Db } from '../../db/database.js';
import type { LegalEntityRow } from '../../db/schema.js';
import { NotFoundError, SignupConflictError } from '../../lib/errors.js';
import { ID_PREFIX, newId } from '../../lib/ids.js';
import type { NewEvent } from '../events/contract.js';
import type { HostedSessionsService, IssuedSession } from '../hosted-sessions/contract.js';
import type { CallbackOrigins, PlatformPrincipal } from '../platforms/contract.js';
import type { Replanner } from '../planning/contract.js';
import { completeProfile, type EntityProfile } from './legal-entities.fns.js';
import { legalEntityEvents } from './legal-entities.events.js';
import { createLegalEntitiesRepository, isExternalIdConflict, type LegalEntitiesRepository } from './legal-entities.repository.js';

export interface SignupResult {
  entity: LegalEntityRow;
  session: IssuedSession;
}

/** What an access token's `state` says about signup: complete, or where the user finishes it. */
export interface SignupState {
  legal_entity_status: 'inactive' | 'active';
  signup_complete: boolean;
  signup_url: string | null;
  signup_url_expires_at: string | null;
}

export interface SignupDeps {
  /** Opens the transactions; queries go through the repository. */
  db: Db;
  sessions: Pick<HostedSessionsService, 'issue' | 'lastCallbackUrl'>;
  signupTtlSeconds: number;
  /** A created or changed profile re-plans the entity's tasks in the same transaction. */
  planning: Replanner;
  /** The platform's allowed callback origins (open-redirect protection). */
  callbackOrigins?: Pick<CallbackOrigins, 'check'>;
  repositoryFor?: (db: Db) => LegalEntitiesRepository;
}

export function createSignupService(deps: SignupDeps) {
  const { db, planning } = deps;
  const repositoryFor = deps.repositoryFor ?? createLegalEntitiesRepository;
  const repo = repositoryFor(db);

  const conflict = (externalId: string | null | undefined) =>
    new SignupConflictError(`A legal entity with external_company_id '${externalId}' already exists for this platform`);

  const issueSignupSession = (entityId: string, callbackUrl: string | null, within?: Db) =>
    deps.sessions.issue({ purpose: 'signup', legalEntityId: entityId, callbackUrl, ttlSeconds: deps.signupTtlSeconds, within });

  /**
   * planning.change: the entity's lock, the change, one re-planning (when the change made one) that records the
   * change's events with its own; with `link`, the signup link is issued in the same transaction (a failure leaves
   * neither the change nor a link, so a retry starts clean).
   */
  async function changeAndReplan<T extends LegalEntityRow | undefined>(
    legalEntityId: string,
    change: (repo: LegalEntitiesRepository) => Promise<T>,
    link?: { callbackUrl: (entity: LegalEntityRow) => string | null },
  ): Promise<{ changed: T; entity: LegalEntityRow | undefined; session: IssuedSession | undefined }> {
    const { value } = await planning.change([legalEntityId], async (trx) => {
      const repo = repositoryFor(trx);
      const before = await repo.findById(legalEntityId);
      const changed = await change(repo);
      const entity = changed ?? before;
      const session = link && entity ? await issueSignupSession(entity.id, link.callbackUrl(entity), trx) : undefined;
      return {
        value: { changed, entity, session },
        ...(changed && { cause: { events: legalEntityEvents(before, changed) } }),
        replan: Boolean(changed),
      };
    });
    return value;
  }

  /** A new entity and its signup link, in one transaction. */
  async function create(
    principal: PlatformPrincipal,
    profile: Partial<EntityProfile> & { business_name: string },
    callbackUrl: (entity: LegalEntityRow) => string | null,
  ): Promise<SignupResult> {
    const id = newId(ID_PREFIX.legalEntity);
    try {
      const { changed, session } = await changeAndReplan(
        id,
        (trx) => trx.insertLegalEntity({ id, platform_id: principal.platformId, ...completeProfile(profile) }),
        { callbackUrl },
      );
      return { entity: changed, session: session! };
    } catch (error) {
      if (isExternalIdConflict(error)) throw conflict(profile.external_company_id);
      throw error;
    }
  }

  async function get(principal: Pick<PlatformPrincipal, 'platformId'>, legalEntityId: string): Promise<LegalEntityRow> {
    const entity = await repo.findLegalEntity(principal.platformId, legalEntityId);
    // 404 for another platform's entity too, so ids cannot be probed.
    if (!entity) throw new NotFoundError(`Legal entity '${legalEntityId}' not found`);
    return entity;
  }

  const alreadyCompleted = (legalEntityId: string) =>
    new SignupConflictError(`Legal entity '${legalEntityId}' has already completed signup`);

  return {
    /** POST /accounts/signup and POST /v2/signup: a new, inactive entity and the link where its user completes signup. */
    async signup(principal: PlatformPrincipal, profile: Partial<EntityProfile> & { business_name: string }): Promise<SignupResult> {
      await deps.callbackOrigins?.check(principal.platformId, profile.authorization_callback_url, 'authorization_callback_url');
      return create(principal, profile, (entity) => entity.authorization_callback_url);
    },

    /**
     * POST /accounts/signup/sessions and POST /v2/signup/sessions: a hosted signup link. With `legal_entity_id` it continues the signup of
     * that (still inactive) entity, refreshing the details the platform sends.
     */
    async hostedSession(
      principal: PlatformPrincipal,
      input: { legalEntityId: string | null; callbackUrl: string; profile: Partial<EntityProfile> & { business_name: string } },
    ): Promise<SignupResult> {
      await deps.callbackOrigins?.check(principal.platformId, input.callbackUrl, 'callback_url');
      if (!input.legalEntityId) return create(principal, input.profile, () => input.callbackUrl);
      const existing = await repo.findLegalEntity(principal.platformId, input.legalEntityId);
      if (!existing) throw new NotFoundError(`Legal entity '${input.legalEntityId}' not found`);
      if (existing.status === 'active') throw alreadyCompleted(existing.id);
      try {
        const { changed, session } = await changeAndReplan(
          existing.id,
          (trx) => trx.updateProfile(principal.platformId, existing.id, input.profile),
          { callbackUrl: () => input.callbackUrl },
        );
        return { entity: changed ?? existing, session: session! };
      } catch (error) {
        if (isExternalIdConflict(error)) throw conflict(input.profile.external_company_id);
        throw error;
      }
    },

    get,

    /** For an inactive entity, a fresh signup link reusing the last callback the platform gave. */
    async signupState(entity: LegalEntityRow): Promise<SignupState> {
      if (entity.status === 'active') {
        return { legal_entity_status: 'active', signup_complete: true, signup_url: null, signup_url_expires_at: null };
      }
      const callback = (await deps.sessions.lastCallbackUrl(entity.id)) ?? entity.authorization_callback_url;
      const session = await issueSignupSession(entity.id, callback);
      return {
        legal_entity_status: 'inactive',
        signup_complete: false,
        signup_url: session.url,
        signup_url_expires_at: session.expires_at,
      };
    },

    /** Operator action (demo data, support): activate without the hosted flow (signup_completed like the hosted flow). */
    async activate(principal: Pick<PlatformPrincipal, 'platformId'>, legalEntityId: string): Promise<LegalEntityRow> {
      const entity = await get(principal, legalEntityId);
      return (await changeAndReplan(entity.id, (trx) => trx.activate(entity.id))).changed ?? entity;
    },

    /**
     * A step of the hosted signup (or its introduction, with no details): store what the user entered, where to resume
     * and the steps the user has confirmed.
     */
    async saveSignupStep(
      legalEntityId: string,
      profile: Partial<EntityProfile>,
      nextStep: string,
      confirmedSteps: string[],
    ): Promise<LegalEntityRow> {
      const { changed: updated } = await changeAndReplan(legalEntityId, (trx) =>
        trx.saveSignupStep(legalEntityId, profile, nextStep, confirmedSteps),
      );
      if (!updated) throw alreadyCompleted(legalEntityId);
      return updated;
    },

    /** The hosted signup's last step: the entity becomes active (once) and its tasks are planned. */
    async completeHostedSignup(legalEntityId: string): Promise<LegalEntityRow | null> {
      return (await changeAndReplan(legalEntityId, (trx) => trx.completeSignup(legalEntityId))).changed ?? null;
    },

    find: (legalEntityId: string): Promise<LegalEntityRow | undefined> => repo.findById(legalEntityId),

    /** Imports (docs/imports.md), in the caller's transaction: the platform's entities with these external company ids. */
    findByExternalIdsIn: (trx: Db, platformId: string, externalIds: readonly string[]): Promise<LegalEntityRow[]> =>
      repositoryFor(trx).findByExternalIds(platformId, externalIds),

    /**
     * Imports, inside the caller's `planning.change` (which holds the entity's lock and re-plans it): a new entity as
     * POST /v2/signup creates it (inactive, with its hosted signup link), or, with `active`, one onboarded elsewhere
     * (active at once, `legal_entity.signup_completed` as when its hosted signup completes). Answers the events to record.
     */
    async createIn(
      trx: Db,
      platformId: string,
      id: string,
      profile: Partial<EntityProfile> & { business_name: string },
      status: 'inactive' | 'active',
    ): Promise<{ entity: LegalEntityRow; events: NewEvent[] }> {
      await deps.callbackOrigins?.check(platformId, profile.authorization_callback_url, 'authorization_callback_url');
      try {
        const entity = await repositoryFor(trx).insertLegalEntity({ id, platform_id: platformId, ...completeProfile(profile) }, status);
        if (status === 'inactive') {
          await issueSignupSession(entity.id, entity.authorization_callback_url, trx);
          return { entity, events: [] };
        }
        return { entity, events: legalEntityEvents({ ...entity, status: 'inactive' }, entity) };
      } catch (error) {
        if (isExternalIdConflict(error)) throw conflict(profile.external_company_id);
        throw error;
      }
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
