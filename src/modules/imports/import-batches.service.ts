// Running an import: its pending rows in committed batches, each one `planning.change` (docs/imports.md).
import type { Db } from '../../db/database.js';
import type { LegalEntityRow } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { ID_PREFIX, newId } from '../../lib/ids.js';
import type { NewEvent } from '../events/contract.js';
import type { SignupService } from '../legal-entities/contract.js';
import type { LocationsService } from '../locations/contract.js';
import type { Replanner } from '../planning/contract.js';
import { conflictIssues, differences, refusalIssues, rowToChange } from './imports.fns.js';
import { createImportsRepository, type PendingRow, type RowOutcome } from './imports.repository.js';

export interface ImportBatchesDeps {
  db: Db;
  planning: Replanner;
  signup: Pick<SignupService, 'findByExternalIdsIn' | 'createIn'>;
  locations: Pick<LocationsService, 'addManyIn' | 'list'>;
  /** Rows per batch (one transaction, one re-planning of the entities it creates). */
  batchSize?: number;
  log?: (message: string) => void;
}

export const DEFAULT_BATCH_SIZE = 100;

export function createImportBatches(deps: ImportBatchesDeps) {
  const { db, planning } = deps;
  const batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;

  /** One row of the batch, in its transaction: created, unchanged, or failed with the differences. */
  async function processRow(
    trx: Db,
    platformId: string,
    pending: PendingRow,
    existing: LegalEntityRow | undefined,
    newIds: Map<number, string>,
    events: NewEvent[],
  ): Promise<RowOutcome> {
    const row = pending.row_number;
    if (existing) {
      const scope = { platformId, legalEntityId: existing.id };
      const found = differences(pending.input, existing, await deps.locations.list(scope));
      return found.length
        ? { row, result: 'failed', legalEntityId: existing.id, errors: conflictIssues(row, existing.id, found) }
        : { row, result: 'unchanged', legalEntityId: existing.id, errors: null };
    }
    const id = newIds.get(row)!;
    const { profile, regions, active } = rowToChange(pending.input);
    const created = await deps.signup.createIn(trx, platformId, id, profile, active ? 'active' : 'inactive');
    events.push(...created.events);
    const located = await deps.locations.addManyIn(trx, { platformId, legalEntityId: id }, regions);
    for (const { event } of located) if (event) events.push(event);
    return { row, result: 'created', legalEntityId: id, errors: null };
  }

  /**
   * One batch: claims pending rows (all of `only`, or the next ones), creates the entities of the new ones and stores
   * every row's result, all in one transaction whose one re-planning plans the entities created. Answers the rows done.
   */
  async function batch(importId: string, platformId: string, only?: readonly number[]): Promise<number> {
    let claimed: PendingRow[] = [];
    let found = new Map<string, LegalEntityRow>();
    const newIds = new Map<number, string>();
    const { value } = await planning.change(
      async (trx) => {
        const repo = createImportsRepository(trx);
        claimed = await repo.claimPending(importId, platformId, only ? only.length : batchSize, only);
        const existing = await deps.signup.findByExternalIdsIn(
          trx,
          platformId,
          claimed.map((r) => r.external_company_id),
        );
        found = new Map(existing.map((e) => [e.external_company_id!, e]));
        for (const r of claimed) if (!found.has(r.external_company_id)) newIds.set(r.row_number, newId(ID_PREFIX.legalEntity));
        return [...newIds.values()];
      },
      async (trx) => {
        const events: NewEvent[] = [];
        const outcomes: RowOutcome[] = [];
        for (const pending of claimed)
          outcomes.push(await processRow(trx, platformId, pending, found.get(pending.external_company_id), newIds, events));
        await createImportsRepository(trx).storeOutcomes(importId, platformId, outcomes);
        return { value: outcomes.length, cause: { events }, replan: newIds.size > 0 };
      },
    );
    return value;
  }

  /** A batch that failed as a whole is run again row by row: a refused row fails alone, with its errors. */
  async function rowByRow(importId: string, platformId: string): Promise<number> {
    const pending = await createImportsRepository(db).claimPending(importId, platformId, batchSize);
    let done = 0;
    for (const { row_number: row } of pending) {
      try {
        done += await batch(importId, platformId, [row]);
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        const issues = refusalIssues(row, error);
        if (!issues)
          deps.log?.(`import ${importId}: row ${row} could not be imported: ${error instanceof Error ? error.message : String(error)}`);
        const errors = issues ?? [
          { type: 'internal_error', loc: ['row', row], msg: 'This row could not be imported (see the server log)', input: null },
        ];
        await createImportsRepository(db).storeOutcomes(importId, platformId, [{ row, result: 'failed', legalEntityId: null, errors }]);
        done += 1;
      }
    }
    return done;
  }

  return {
    /**
     * Works on the import until no row is pending (then finishes it: succeeded or completed_with_errors) or until
     * `deadline` (ms since the epoch) passes. `progress` hears the rows done after each batch. Answers whether rows
     * remain. Several workers may run one import at once: each batch claims its own rows.
     */
    async run(
      importId: string,
      platformId: string,
      options: { deadline?: number; progress?: (done: number) => void } = {},
    ): Promise<'finished' | 'more'> {
      const repo = createImportsRepository(db);
      await repo.markRunning(importId, platformId);
      for (;;) {
        let done: number;
        try {
          done = await batch(importId, platformId);
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw error;
          done = await rowByRow(importId, platformId);
        }
        if (done === 0) break;
        options.progress?.(done);
        if (options.deadline !== undefined && Date.now() > options.deadline) return 'more';
      }
      await repo.finish(importId, platformId);
      return 'finished';
    },
  };
}

export type ImportBatches = ReturnType<typeof createImportBatches>;
