/**
 * Test clocks (docs/test-clocks.md): an entity's own "now", moved forward by its platform outside production. The
 * clock is read through planning's EntityClock port (planning/contract.ts), which this module implements; nothing
 * else of it is used by other modules.
 */

/** The furthest one advance (or a new clock's frozen_time) may reach: two years ahead. */
export const MAX_ADVANCE_MONTHS = 24;

/** Days the plan of an entity may change on within one advance, at most (a guard: two years have far fewer). */
export const MAX_STEPS_PER_ADVANCE = 1000;

/** A test clock as the API answers it. */
export interface TestClockView {
  id: string;
  legal_entity_id: string;
  frozen_time: string;
  status: 'ready';
  created_at: string;
}
