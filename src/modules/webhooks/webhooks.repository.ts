import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookEndpointsTable, WebhookEndpointSecretsTable } from '../../db/schema.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type EndpointChanges = Updateable<Omit<WebhookEndpointsTable, 'id' | 'platform_id' | 'created_at'>>;
export type SecretRow = Selectable<WebhookEndpointSecretsTable>;

export interface NewEndpointRow {
  id: string;
  platform_id: string;
  url: string;
  description: string | null;
  event_types: string[] | null;
}

/** A new signing secret: every column but the ones the database fills. */
export type NewSecretRow = Omit<Insertable<WebhookEndpointSecretsTable>, 'created_at' | 'expires_at'>;

/** Every query of webhook endpoints and their signing secrets (platform id first where a platform asks). */
export function createWebhooksRepository(db: Db) {
  const live = () => db.selectFrom('webhook_endpoints').selectAll().where('deleted_at', 'is', null);

  return {
    insertEndpoint: (row: NewEndpointRow) => db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow(),

    insertSecret: async (row: NewSecretRow) => {
      await db.insertInto('webhook_endpoint_secrets').values(row).execute();
    },

    /** The platform's endpoints, oldest first. */
    listForPlatform: (platformId: string) => live().where('platform_id', '=', platformId).orderBy('created_at').orderBy('id').execute(),

    /** Operators: every platform's endpoints, or one platform's. */
    listAll: (platformId?: string) => {
      let query = live();
      if (platformId) query = query.where('platform_id', '=', platformId);
      return query.orderBy('platform_id').orderBy('created_at').orderBy('id').execute();
    },

    findForPlatform: (platformId: string, id: string) =>
      live().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst(),

    /** Row lock: changes of one endpoint (and counted delivery outcomes) apply one after the other. */
    findForUpdate: (id: string) => live().where('id', '=', id).forUpdate().executeTakeFirst(),

    update: (id: string, changes: EndpointChanges) =>
      db
        .updateTable('webhook_endpoints')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** The delivery side's counters; `updated_at` stays the time of the last change a person made. */
    updateHealth: async (
      id: string,
      changes: Pick<
        EndpointChanges,
        'consecutive_failures' | 'failing_since' | 'last_success_at' | 'status' | 'disabled_at' | 'disabled_reason'
      >,
    ) => {
      await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
    },

    /**
     * A success: clears the failure count and moves last_success_at, but writes (and so locks) the row only when that
     * changes something a reader sees — a failing endpoint, or a last success older than `staleBefore`. A healthy
     * endpoint's successes then cost one index probe and never queue behind each other on its row.
     */
    markHealthy: async (id: string, at: Date, staleBefore: Date) => {
      await db
        .updateTable('webhook_endpoints')
        .set({ consecutive_failures: 0, failing_since: null, last_success_at: at })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('consecutive_failures', '>', 0),
            eb('failing_since', 'is not', null),
            eb('last_success_at', 'is', null),
            eb('last_success_at', '<', staleBefore),
          ]),
        )
        .execute();
    },

    /** Enabled endpoints of the platform that receive this type (event_types null: every type). */
    subscribedTo: (platformId: string, type: string) =>
      db
        .selectFrom('webhook_endpoints')
        .select(['id', 'platform_id', 'url'])
        .where('platform_id', '=', platformId)
        .where('deleted_at', 'is', null)
        .where('status', '=', 'enabled')
        .where((eb) => eb.or([eb('event_types', 'is', null), eb(eb.val(type), '=', eb.fn.any('event_types'))]))
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    findEnabled: (id: string) =>
      db
        .selectFrom('webhook_endpoints')
        .select(['id', 'platform_id', 'url'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where('status', '=', 'enabled')
        .executeTakeFirst(),

    /** Secrets that sign now: the current one (expires_at null) first, then rotated-out ones, newest first. */
    signingSecrets: (endpointId: string) =>
      db
        .selectFrom('webhook_endpoint_secrets')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .orderBy(sql`expires_at is null`, 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),

    /** Rotation: the current secret keeps signing for `seconds` more (by the database's clock, which `signingSecrets` reads). */
    expireCurrentSecret: async (endpointId: string, seconds: number): Promise<Date> => {
      const { at } = await db.selectNoFrom(sql<Date>`now() + make_interval(secs => ${seconds})`.as('at')).executeTakeFirstOrThrow();
      await db
        .updateTable('webhook_endpoint_secrets')
        .set({ expires_at: at })
        .where('endpoint_id', '=', endpointId)
        .where('expires_at', 'is', null)
        .execute();
      return at;
    },

    /** Secrets that no longer sign are of no use to anyone. */
    deleteExpiredSecrets: async (endpointId: string) => {
      await db
        .deleteFrom('webhook_endpoint_secrets')
        .where('endpoint_id', '=', endpointId)
        .where('expires_at', '<=', sql<Date>`now()`)
        .execute();
    },

    /** Deleting keeps the row (deliveries and attempts refer to it) but drops its secrets: nothing signs for it again. */
    markDeleted: async (id: string, at: Date) => {
      await db.updateTable('webhook_endpoints').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute();
      await db.deleteFrom('webhook_endpoint_secrets').where('endpoint_id', '=', id).execute();
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
