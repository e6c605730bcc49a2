/** Row types of the test clocks (src/modules/test-clocks/, docs/test-clocks.md). */
import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './columns.js';

export interface TestClocksTable {
  id: string;
  platform_id: string;
  legal_entity_id: string;
  /** The entity's "now" while the clock exists. */
  frozen_time: Date;
  status: Generated<string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
