// What other modules may use of tasks: the ports through which a module whose own fact acts on tasks writes them
// (the tasks module is the one writer of the tasks table; app.ts gives the implementations, tasks.repository.ts).
import type { Db } from '../../db/database.js';

/**
 * Completes the tasks another module's own fact fulfils (handbook: publishing a version completes the entity's
 * `employee-handbook` tasks of the states it covers). `db` is the caller's transaction.
 */
export interface TaskCompletionStore {
  /**
   * Marks done, at `at`, the entity's open (to-do or in-progress) tasks of this requirement in these regions; answers
   * the ids of the tasks it completed (none when `regionCodes` is empty).
   */
  completeOpen(db: Db, legalEntityId: string, requirementId: string, regionCodes: readonly string[], at: Date): Promise<string[]>;
}
