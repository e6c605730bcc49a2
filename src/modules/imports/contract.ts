// What other modules may use of imports: nothing calls it; its limits are named here (docs/imports.md).
export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './imports.schemas.js';
