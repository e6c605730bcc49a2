// What other modules may use of legal entities: the state code schema of their wire shapes, the signup service
// type (auth issues tokens for signed-up entities), and the port through which payroll keeps its connection on the
// entity (this module is the one writer of legal_entities). The entity wire shapes and the service are this module's.
export type { SignupService, SignupResult, SignupState } from './signup.service.js';
export { toAccountLegalEntity, profileFromV2, toPlatformLegalEntity, type EntityProfile } from './legal-entities.fns.js';
export { PlatformSignupRequestSchema, type PlatformSignupRequest } from './legal-entities.schemas.js';
export { AccountLegalEntitySchema } from './legal-entities.schemas.js';
export { RegionInput, StateCode } from './state-code.js';
export type { PayrollConnectionColumns, PayrollConnectionStore } from './payroll-connection.js';
