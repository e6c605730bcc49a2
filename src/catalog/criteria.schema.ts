import { Type } from 'typebox';
import { ENTITY_TYPES, Id, Literals, PRODUCT_KINDS, TAX_CLASSES } from './catalog-vocabulary.js';

/** Conditions, all of which must hold; `any` holds when one of its branches does. Unknown facts raise questions. */
export interface Criteria {
  scope?: 'home' | 'foreign' | 'any';
  has_employees?: boolean;
  has_physical_location?: boolean;
  employee_count_gte?: number;
  entity_types?: (typeof ENTITY_TYPES)[number][];
  tax_classifications?: (typeof TAX_CLASSES)[number][];
  /** The business has employees or premises in this locality (an id of the region file's `localities`); asked per locality. */
  in_locality?: string;
  /** The business sells at least one of these (each asked once per business). */
  sells?: (keyof typeof PRODUCT_KINDS)[];
  offers_retirement_plan?: boolean;
  pays_contractors?: boolean;
  /** Sales into this region in the current or previous calendar year, whichever is more: at least N US dollars. */
  annual_sales_gte?: number;
  /** Separate sales into this region in the current or previous calendar year: at least N. */
  annual_transactions_gte?: number;
  any?: Criteria[];
}

export const CriteriaSchema = Type.Cyclic(
  {
    Criteria: Type.Object(
      {
        scope: Type.Optional(Literals(['home', 'foreign', 'any'] as const)),
        has_employees: Type.Optional(Type.Boolean()),
        has_physical_location: Type.Optional(Type.Boolean()),
        employee_count_gte: Type.Optional(Type.Integer({ minimum: 1 })),
        entity_types: Type.Optional(Type.Array(Literals(ENTITY_TYPES), { minItems: 1 })),
        tax_classifications: Type.Optional(Type.Array(Literals(TAX_CLASSES), { minItems: 1 })),
        in_locality: Type.Optional(Id),
        sells: Type.Optional(Type.Array(Literals(Object.keys(PRODUCT_KINDS) as (keyof typeof PRODUCT_KINDS)[]), { minItems: 1, uniqueItems: true })),
        offers_retirement_plan: Type.Optional(Type.Boolean()),
        pays_contractors: Type.Optional(Type.Boolean()),
        annual_sales_gte: Type.Optional(Type.Integer({ minimum: 1 })),
        annual_transactions_gte: Type.Optional(Type.Integer({ minimum: 1 })),
        any: Type.Optional(Type.Array(Type.Ref('Criteria'), { minItems: 2 })),
      },
      { additionalProperties: false },
    ),
  },
  'Criteria',
);
