// The test clocks' wire shapes (docs/test-clocks.md): validation, serialisation and the OpenAPI document in one.
import { Type } from 'typebox';
import { BoundedString, Nullable } from '../../http/schemas.js';
import type { TestClockView } from './contract.js';
import type { TestClockRow } from './test-clocks.repository.js';

const Instant = (description: string) =>
  Type.String({
    maxLength: 40,
    description: `${description} A date-time with its offset (RFC 3339, e.g. 2027-01-15T09:00:00Z) or a date (midnight UTC).`,
  });

export const TestClockSchema = Type.Object(
  {
    id: Type.String({ description: 'The clock id (`clock_…`).' }),
    legal_entity_id: Type.String({ description: 'The one entity whose "now" this clock is.' }),
    frozen_time: Type.String({ format: 'date-time', description: "The entity's simulated now: every date decision about it reads it." }),
    status: Type.Literal('ready', { description: 'ready: an advance runs inside its request, so a clock is never seen mid-way.' }),
    created_at: Type.String({ format: 'date-time', description: 'When the clock was made (real time).' }),
  },
  { title: 'TestClock' },
);

export const CreateTestClockBodySchema = Type.Object(
  {
    legal_entity_id: BoundedString(64, { description: 'An entity of the calling platform without a clock.' }),
    frozen_time: Type.Optional(Nullable(Instant('Where the clock starts; default now. From now to 24 months ahead.'))),
  },
  { title: 'TestClockCreate' },
);

export const AdvanceTestClockBodySchema = Type.Object(
  { to: Instant('Later than frozen_time, at most 24 months after it.') },
  { title: 'TestClockAdvance' },
);

export const TestClockParamsSchema = Type.Object({ id: BoundedString(64) });

export const TestClockListSchema = Type.Object({ data: Type.Array(TestClockSchema) }, { title: 'TestClockList' });

export const toTestClockView = (row: TestClockRow): TestClockView => ({
  id: row.id,
  legal_entity_id: row.legal_entity_id,
  frozen_time: row.frozen_time.toISOString(),
  status: 'ready',
  created_at: row.created_at.toISOString(),
});
