// What other modules may use of legal entities: the state code schema of their wire shapes, and the signup service
// type (auth issues tokens for signed-up entities). The entity wire shapes and the service are this module's.
export type { SignupService, SignupResult, SignupState } from './signup.service.js';
export { toAccountLegalEntity } from './legal-entities.fns.js';
export { AccountLegalEntitySchema } from './legal-entities.schemas.js';
export { RegionInput, StateCode } from './state-code.js';
