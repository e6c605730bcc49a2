// What other modules may use of mail: the service (intake, listings, links), the mail types and the event payload schema.
export { MAIL_TYPES } from './mail.input.js';
export { MailEventSchema } from './mail.schemas.js';
export type { MailIngestInput, MailItemView, MailService } from './mail.service.js';
