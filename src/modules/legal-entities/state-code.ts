import { Type } from 'typebox';
import { REGION_CODES, resolveRegion } from '../../catalog/regions.js';
import { StringEnum } from '../../http/schemas.js';
import { defineInputReader } from '../../http/validation/input-readers.js';
import { INPUT_READER } from '../../http/validation/types.js';

export const StateCode = StringEnum(REGION_CODES as unknown as readonly [string, ...string[]], {
  title: 'StateCode',
  description: 'Two-letter code of a US state or DC.',
});

/**
 * A state where a request names one: documented as StateCode (what is stored and answered), read more widely — the
 * two-letter code in any case, the state's name in any case ("California") or its location id (GET /locations) — and
 * turned into the code before the operation sees it (docs/decisions/0077-region-names-and-ids.md).
 */
export const RegionInput = Type.Unsafe<string>({
  type: 'string',
  enum: [...REGION_CODES],
  title: 'StateCode',
  description: "Two-letter code of a US state or DC (e.g. CA); the state's name (California) or its location id are accepted too.",
  [INPUT_READER]: 'region',
});

defineInputReader('region', {
  read: (input) => resolveRegion(input)?.code,
});
