import type { Migration } from 'kysely';
import * as core from './20261122100000_core.js';

/** Every migration, by sortable name. Append only. */
export const migrations: Record<string, Migration> = {
  '20261122100000_core': core,
};
