import type { Db } from '../../db/database.js';
import type { EventRecorder, NewEvent } from '../events/contract.js';
import { toAccountV2, toLoginV2, type AccountViews } from './accounts.views.js';
import type { AccountsRepository, LoginListRow } from './accounts.repository.js';

/** Where an event is written (`trx`) and the account queries over that same transaction. */
export interface InTransaction {
  trx: Db;
  repo: Pick<AccountsRepository, 'findAccount' | 'findLogins' | 'platformOf'>;
}

/**
 * agency_account.created/updated and login.created, read in the change's transaction, in their /v2 shapes
 * (GET /v2/agency_accounts, /v2/logins): built from the listing columns, so no secret, password, TOTP seed or
 * sealed byte can reach a payload.
 */
export function createAccountEvents(deps: { events: EventRecorder; views: AccountViews }) {
  async function accountEvent(
    { repo }: InTransaction,
    legalEntityId: string,
    accountId: string,
    type: 'agency_account.created' | 'agency_account.updated',
    changed?: string[],
  ): Promise<NewEvent> {
    const account = await repo.findAccount(legalEntityId, accountId);
    const platformId = await repo.platformOf(legalEntityId);
    if (!account || !platformId) throw new Error(`agency account ${accountId} of ${legalEntityId} is not there to describe`);
    const logins = await repo.findLogins(legalEntityId, account.region_code);
    return {
      type,
      platformId,
      legalEntityId,
      data: { object: toAccountV2(deps.views.toAccountView(account, logins)), ...(changed && { changed }) },
    };
  }

  return {
    /** The account just inserted in `trx` (with any login inserted with it). */
    accountCreated: async (on: InTransaction, legalEntityId: string, accountId: string) =>
      deps.events.record(on.trx, await accountEvent(on, legalEntityId, accountId, 'agency_account.created')),

    /** The account changed in `trx`: `changed` names its /v2 fields that did. */
    accountUpdated: async (on: InTransaction, legalEntityId: string, accountId: string, changed: string[]) =>
      deps.events.record(on.trx, await accountEvent(on, legalEntityId, accountId, 'agency_account.updated', changed)),

    /** A login inserted in `trx`; its agency account (if any) gained it: agency_account.updated (logins) with it. */
    async loginCreated(on: InTransaction, legalEntityId: string, login: LoginListRow, options: { accountAlsoCreated?: boolean } = {}) {
      const platformId = await on.repo.platformOf(legalEntityId);
      if (!platformId) throw new Error(`legal entity ${legalEntityId} is not there to describe its login`);
      const events: NewEvent[] = [
        { type: 'login.created', platformId, legalEntityId, data: { object: toLoginV2(deps.views.toLoginView(login)) } },
      ];
      if (login.agency_account_id && !options.accountAlsoCreated) {
        events.push(await accountEvent(on, legalEntityId, login.agency_account_id, 'agency_account.updated', ['logins']));
      }
      await deps.events.record(on.trx, events);
    },
  };
}

export type AccountEvents = ReturnType<typeof createAccountEvents>;
