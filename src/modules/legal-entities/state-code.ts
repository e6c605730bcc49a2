import { REGION_CODES } from '../../catalog/regions.js';
import { StringEnum } from '../../http/schemas.js';

export const StateCode = StringEnum(REGION_CODES as unknown as readonly [string, ...string[]], {
  title: 'StateCode',
  description: 'Two-letter code of a US state or DC.',
});
