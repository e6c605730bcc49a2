import { PRODUCT_KINDS, type BUSINESS_FACTS } from '../catalog/catalog-vocabulary.js';
import type { Criteria } from '../catalog/criteria.schema.js';

/** What the rules know about one region of one entity. null = unknown. */
export interface RegionFacts {
  regionCode: string;
  regionName: string;
  isHome: boolean;
  hasEmployees: boolean | null;
  hasPhysicalLocation: boolean | null;
  employeeCount: number | null;
  entityType: string | null;
  taxClassification: string | null;
  /** The answers of the `in-locality` question in this region, by locality id (absent: not answered yet). */
  localityAnswers?: ReadonlyMap<string, boolean>;
  /** The names of the region's localities, by id (for the reasons). */
  localityNames?: ReadonlyMap<string, string>;
  /**
   * Set for the federal requirements, whose facts are the whole business's: `isHome` then means incorporated in a
   * US state (`incorporatedIn`, its name; null while unknown), and the reasons speak of the United States.
   */
  federal?: { incorporatedIn: string | null };
  /** The whole business's answers (what it sells, a retirement plan, contractors): the same in every region. */
  business?: BusinessFacts;
  /** Its sales into this region in the current or previous calendar year, in dollars and in number (economic nexus). */
  annualSales?: number | null;
  annualTransactions?: number | null;
}

export type BusinessFact = (typeof BUSINESS_FACTS)[number];
export type BusinessFacts = Partial<Record<BusinessFact, boolean | null>>;

export type Fact = 'has_employees' | 'has_physical_location' | 'employee_count' | 'annual_sales' | 'annual_transactions' | BusinessFact;

/**
 * Facts asked only once the rest of a criterion is known to hold: a business is not asked its sales into a state
 * before it is known to sell what the state taxes (or while its presence there, which settles nexus alone, is unknown).
 */
const ASKED_LAST = new Set<Fact>(['annual_sales', 'annual_transactions']);

export interface CriterionMet {
  key: string;
  reason: string;
  data: Record<string, unknown>;
}

export interface Evaluation {
  value: boolean | null;
  /** Why it holds (when it does). */
  met: CriterionMet[];
  /** The facts whose absence keeps it undecided (when it is). */
  unknown: Set<Fact>;
  /**
   * The localities whose `in-locality` answer keeps it undecided. Only once nothing else is unknown: a city is asked
   * about only when the rest of the criteria hold (no Philadelphia question without Pennsylvania employees).
   */
  localities: Set<string>;
}

const ENTITY_TYPE_NAMES: Record<string, string> = {
  c_corp: 'C corporation',
  p_corp: 'professional corporation',
  pllc: 'professional LLC',
  llc: 'limited liability company',
  llp: 'limited liability partnership',
  lp: 'limited partnership',
  gp: 'general partnership',
};
const TAX_CLASS_NAMES: Record<string, string> = {
  corp: 'a corporation',
  s_corp: 'an S corporation',
  partnership: 'a partnership',
  disregarded: 'a disregarded entity',
  tax_exempt: 'a tax-exempt organization',
};

const TRUE = (met: CriterionMet[] = []): Evaluation => ({ value: true, met, unknown: new Set(), localities: new Set() });
const FALSE: Evaluation = { value: false, met: [], unknown: new Set(), localities: new Set() };
const UNKNOWN = (fact: Fact): Evaluation => ({ value: null, met: [], unknown: new Set([fact]), localities: new Set() });

/** Kleene logic: false wins an AND, true wins an OR, otherwise unknown. */
function and(parts: Evaluation[]): Evaluation {
  if (parts.some((p) => p.value === false)) return FALSE;
  const unknown = parts.filter((p) => p.value === null);
  if (unknown.length > 0) {
    let facts = new Set(unknown.flatMap((p) => [...p.unknown]));
    if ([...facts].some((f) => !ASKED_LAST.has(f))) facts = new Set([...facts].filter((f) => !ASKED_LAST.has(f)));
    // The region's own facts are asked first; the localities once they are known and the rest holds.
    return {
      value: null,
      met: [],
      unknown: facts,
      localities: facts.size > 0 ? new Set() : new Set(unknown.flatMap((p) => [...p.localities])),
    };
  }
  return TRUE(parts.flatMap((p) => p.met));
}

function or(parts: Evaluation[]): Evaluation {
  const held = parts.find((p) => p.value === true);
  if (held) return held;
  const unknown = parts.filter((p) => p.value === null);
  if (unknown.length > 0)
    return {
      value: null,
      met: [],
      unknown: new Set(unknown.flatMap((p) => [...p.unknown])),
      localities: new Set(unknown.flatMap((p) => [...p.localities])),
    };
  return FALSE;
}

/** `in_locality`: the answer of that locality's `in-locality` question. */
function inLocality(id: string, facts: RegionFacts): Evaluation {
  const answer = facts.localityAnswers?.get(id);
  if (answer === undefined) return { value: null, met: [], unknown: new Set(), localities: new Set([id]) };
  if (!answer) return FALSE;
  const name = facts.localityNames?.get(id) ?? id;
  return TRUE([
    {
      key: 'in-locality',
      reason: `The business has employees or premises in ${name}, ${facts.regionName}`,
      data: { region: facts.regionCode, locality: id },
    },
  ]);
}

/**
 * `scope` of a federal requirement: home = incorporated in a US state, foreign = a company formed abroad. Without a
 * state of incorporation yet (a hosted signup not finished) it is undecided, and asks nothing: no entity can be
 * recorded as formed abroad today, so `foreign` holds for none (catalog/README.md, "Federal requirements").
 */
function federalScope(scope: 'home' | 'foreign', incorporatedIn: string | null): Evaluation {
  if (incorporatedIn === null) return { value: null, met: [], unknown: new Set(), localities: new Set() };
  if (scope === 'home') {
    return TRUE([{ key: 'home-state', reason: `The business is incorporated in ${incorporatedIn}`, data: { incorporated_in_us: true } }]);
  }
  return FALSE;
}

const PRODUCT_NAMES: Record<keyof typeof PRODUCT_KINDS, string> = {
  tangible_goods: 'physical products (tangible goods)',
  digital_products: 'software as a service or digital products',
  services: 'services',
};

function atLeast(actual: number | null, min: number, fact: Fact, met: (value: number, min: number) => CriterionMet): Evaluation {
  if (actual === null) return UNKNOWN(fact);
  return actual >= min ? TRUE([met(actual, min)]) : FALSE;
}

function flag(actual: boolean | null, wanted: boolean, fact: Fact, met: CriterionMet): Evaluation {
  if (actual === null) return UNKNOWN(fact);
  return actual === wanted ? TRUE([met]) : FALSE;
}

/** Evaluates `applies_when` for one region; the reasons read as sentences for people. */
export function evaluate(criteria: Criteria, facts: RegionFacts): Evaluation {
  const region = { region: facts.regionCode };
  const parts: Evaluation[] = [];
  if (facts.federal && (criteria.scope === 'home' || criteria.scope === 'foreign')) {
    parts.push(federalScope(criteria.scope, facts.federal.incorporatedIn));
  } else if (criteria.scope === 'home') {
    parts.push(
      facts.isHome ? TRUE([{ key: 'home-state', reason: `${facts.regionName} is the state of incorporation`, data: region }]) : FALSE,
    );
  } else if (criteria.scope === 'foreign') {
    parts.push(
      facts.isHome
        ? FALSE
        : TRUE([{ key: 'foreign-state', reason: `${facts.regionName} is not the state of incorporation`, data: region }]),
    );
  }
  if (criteria.has_employees !== undefined) {
    const wanted = criteria.has_employees;
    parts.push(
      flag(facts.hasEmployees, wanted, 'has_employees', {
        key: 'has-employees',
        reason: wanted ? `The business has employees in ${facts.regionName}` : `The business has no employees in ${facts.regionName}`,
        data: { ...region, has_employees: wanted },
      }),
    );
  }
  if (criteria.has_physical_location !== undefined) {
    const wanted = criteria.has_physical_location;
    parts.push(
      flag(facts.hasPhysicalLocation, wanted, 'has_physical_location', {
        key: 'has-physical-location',
        reason: wanted
          ? `The business has a physical location in ${facts.regionName}`
          : `The business has no physical location in ${facts.regionName}`,
        data: { ...region, has_physical_location: wanted },
      }),
    );
  }
  if (criteria.employee_count_gte !== undefined) {
    const min = criteria.employee_count_gte;
    if (facts.employeeCount === null) parts.push(UNKNOWN('employee_count'));
    else if (facts.employeeCount >= min) {
      parts.push(
        TRUE([
          {
            key: 'employee-count',
            reason: `The business has ${facts.employeeCount} employees in ${facts.regionName} (${min} or more)`,
            data: { ...region, employee_count: facts.employeeCount, minimum: min },
          },
        ]),
      );
    } else parts.push(FALSE);
  }
  if (criteria.entity_types) {
    const type = facts.entityType;
    parts.push(
      type && criteria.entity_types.includes(type as never)
        ? TRUE([{ key: 'entity-type', reason: `The business is a ${ENTITY_TYPE_NAMES[type] ?? type}`, data: { entity_type: type } }])
        : FALSE,
    );
  }
  if (criteria.tax_classifications) {
    const tax = facts.taxClassification;
    parts.push(
      tax && criteria.tax_classifications.includes(tax as never)
        ? TRUE([
            {
              key: 'tax-classification',
              reason: `The business is taxed as ${TAX_CLASS_NAMES[tax] ?? tax}`,
              data: { tax_classification: tax },
            },
          ])
        : FALSE,
    );
  }
  if (criteria.in_locality !== undefined) parts.push(inLocality(criteria.in_locality, facts));
  if (criteria.sells) {
    parts.push(
      or(
        criteria.sells.map((kind) => {
          const fact = PRODUCT_KINDS[kind];
          return flag(facts.business?.[fact] ?? null, true, fact, {
            key: 'sells',
            reason: `The business sells ${PRODUCT_NAMES[kind]}`,
            data: { sells: kind },
          });
        }),
      ),
    );
  }
  if (criteria.offers_retirement_plan !== undefined) {
    const wanted = criteria.offers_retirement_plan;
    parts.push(
      flag(facts.business?.offers_retirement_plan ?? null, wanted, 'offers_retirement_plan', {
        key: 'retirement-plan',
        reason: wanted ? 'The business offers its employees a retirement plan' : 'The business offers its employees no retirement plan',
        data: { offers_retirement_plan: wanted },
      }),
    );
  }
  if (criteria.pays_contractors !== undefined) {
    const wanted = criteria.pays_contractors;
    parts.push(
      flag(facts.business?.pays_contractors ?? null, wanted, 'pays_contractors', {
        key: 'pays-contractors',
        reason: wanted ? 'The business pays independent contractors' : 'The business pays no independent contractors',
        data: { pays_contractors: wanted },
      }),
    );
  }
  if (criteria.annual_sales_gte !== undefined) {
    parts.push(
      atLeast(facts.annualSales ?? null, criteria.annual_sales_gte, 'annual_sales', (value, min) => ({
        key: 'annual-sales',
        reason: `The business's sales into ${facts.regionName} reach $${value.toLocaleString('en-US')} a year ($${min.toLocaleString('en-US')} or more)`,
        data: { ...region, annual_sales: value, minimum: min },
      })),
    );
  }
  if (criteria.annual_transactions_gte !== undefined) {
    parts.push(
      atLeast(facts.annualTransactions ?? null, criteria.annual_transactions_gte, 'annual_transactions', (value, min) => ({
        key: 'annual-transactions',
        reason: `The business makes ${value} sales a year into ${facts.regionName} (${min} or more)`,
        data: { ...region, annual_transactions: value, minimum: min },
      })),
    );
  }
  if (criteria.any) parts.push(or(criteria.any.map((branch) => evaluate(branch, facts))));
  return and(parts);
}
