import { Type, type Static } from 'typebox';
import { ENTITY_TYPES, Literals, Text } from './catalog-vocabulary.js';

const DayOfMonth = Type.Union([Type.Integer({ minimum: 1, maximum: 31 }), Type.Literal('last')]);

/** When one occurrence is due. */
export const DueRuleSchema = Type.Union([
  Type.Object({ rule: Type.Literal('none'), note: Type.Optional(Text(300)) }, { additionalProperties: false }),
  Type.Object({ rule: Type.Literal('fixed'), month: Type.Integer({ minimum: 1, maximum: 12 }), day: DayOfMonth }, { additionalProperties: false }),
  Type.Object(
    {
      rule: Type.Literal('anniversary'),
      of: Literals(['registration_date'] as const),
      offset_months: Type.Integer({ minimum: -11, maximum: 11 }),
      /** 'quarter-end': the last day of the calendar quarter containing that month. */
      day: Type.Union([DayOfMonth, Type.Literal('same'), Type.Literal('quarter-end')]),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { rule: Type.Literal('fiscal_year_end'), offset_months: Type.Integer({ minimum: 0, maximum: 12 }), day: DayOfMonth },
    { additionalProperties: false },
  ),
  /** Quarterly filings (`every: 1q`): `day` of the `offset_months`-th month after each calendar quarter ends (941: 1, last). */
  Type.Object(
    { rule: Type.Literal('quarter_end'), offset_months: Type.Integer({ minimum: 0, maximum: 3 }), day: DayOfMonth },
    { additionalProperties: false },
  ),
  Type.Object(
    { rule: Type.Literal('within_days'), of: Literals(['registration_date', 'operations_start_date'] as const), days: Type.Integer({ minimum: 0, maximum: 730 }) },
    { additionalProperties: false },
  ),
  /**
   * One-time filings only: the `day` of the `offset_months`-th month after the month of the date (registration
   * 2027-10-01, offset 3, day 15: 2028-01-15 — "the 15th day of the 4th month", counting the registration month as the first).
   */
  Type.Object(
    {
      rule: Type.Literal('months_after'),
      of: Literals(['registration_date', 'operations_start_date'] as const),
      offset_months: Type.Integer({ minimum: 0, maximum: 24 }),
      day: DayOfMonth,
    },
    { additionalProperties: false },
  ),
]);

/**
 * Which years a biennial or triennial filing falls in: the registration (incorporation, in the home state) year's
 * cycle (default), the opposite parity of it, odd or even calendar years, or the parity of the last digit of the
 * state's registration number (asked; estimated from the registration year until answered).
 */
export const CYCLES = ['same-as-registration-year', 'opposite-of-registration-year', 'odd', 'even', 'registration-number-digit'] as const;

export const ScheduleSchema = Type.Object(
  {
    /** once; quarterly (1q, calendar quarters); every year, two years or three years. */
    every: Literals(['once', '1q', '1y', '2y', '3y'] as const),
    due: DueRuleSchema,
    /**
     * Biennial (and triennial: only 'same-as-registration-year') filings: see CYCLES. Without it: the registration
     * year's cycle, the first one two (three) years after registration, or — with `first: next-year` — every two
     * years from the year after registration.
     */
    parity: Type.Optional(Literals(CYCLES)),
    /** The cycle by entity type, where a state sets it so (e.g. corporations in even years, LLCs in odd years); overrides `parity`. */
    parity_by_entity_type: Type.Optional(Type.Partial(Type.Record(Literals(ENTITY_TYPES), Literals(CYCLES)))),
    /** The first recurring filing is due in the year after registration ('next-year') or at the first due date after it ('first-due-date'). */
    first: Type.Optional(Literals(['next-year', 'first-due-date'] as const)),
  },
  { additionalProperties: false },
);

export type DueRule = Static<typeof DueRuleSchema>;
export type Schedule = Static<typeof ScheduleSchema>;
