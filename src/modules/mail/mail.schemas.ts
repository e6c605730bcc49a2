import { Type } from 'typebox';
import { BoundedString, DateString, CallbackUrlString, Nullable, StringEnum } from '../../http/schemas.js';
import { RegionInput, StateCode } from '../legal-entities/contract.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import { MAIL_TYPES, MAX_FILE_NAME_LENGTH, MAX_SENDER_LENGTH, MAX_SUBJECT_LENGTH } from './mail.input.js';

export const MailTypeSchema = StringEnum(MAIL_TYPES, { title: 'MailType' });

const FILE_URL_DOC =
  'A signed link to the PDF, valid for 15 minutes by default (`FILE_URL_TTL_SECONDS`); it needs no Authorization header, so a browser can ' +
  'open it. List the mail again for a fresh link.';

const common = {
  id: Type.String({ description: 'The identifier of this mail item.' }),
  type: MailTypeSchema,
  received: Type.String({ format: 'date', description: 'The day the mail was received.' }),
  sender: Nullable(Type.String({ description: 'Who sent the mail, e.g. the agency.' })),
  file_url: Type.String({ description: FILE_URL_DOC }),
};

/** Unversioned mail item: the state as a location id. */
export const MailSchema = Type.Object(
  {
    id: common.id,
    location_id: Nullable(Type.String({ description: 'The location (state) the mail concerns, if any.' })),
    type: common.type,
    received: common.received,
    sender: common.sender,
    file_url: common.file_url,
  },
  { title: 'PlatformMail' },
);

/** v2 mail item: the state as its two-letter code. */
export const MailV2Schema = Type.Object(
  {
    id: common.id,
    region: Nullable(StateCode),
    type: common.type,
    received: common.received,
    sender: common.sender,
    file_url: common.file_url,
  },
  { title: 'PlatformMailV2' },
);

/** `mail.received`'s object: the v2 item without its signed link (it expires long before the event; list /v2/mail for one). */
export const MailEventSchema = Type.Object(
  { id: common.id, region: Nullable(StateCode), type: common.type, received: common.received, sender: common.sender },
  { title: 'MailReceived' },
);

/** What operators see: the v2 item plus where its file is. */
export const OperatorMailSchema = Type.Object(
  {
    id: common.id,
    legal_entity_id: Type.String(),
    region: Nullable(StateCode),
    type: common.type,
    received: common.received,
    sender: common.sender,
    file_name: Nullable(Type.String()),
    subject: Nullable(Type.String({ description: 'What the mail is about (shown on the documents page).' })),
    opened_at: Nullable(
      Type.String({ format: 'date-time', description: 'When the owner first opened it from the documents page; null: new to them.' }),
    ),
    file_sha256: Type.String({ description: 'Hex SHA-256 of the PDF: its key in the file store.' }),
    file_size: Type.Integer({ description: 'Size of the PDF in bytes.' }),
    created_at: Type.String({ format: 'date-time' }),
    file_url: common.file_url,
  },
  { title: 'OperatorMailItem' },
);

const dates = {
  start_date: Type.Optional(Nullable(DateString({ description: 'Keep mail received on or after this day (inclusive).' }))),
  end_date: Type.Optional(
    Nullable(DateString({ description: 'Keep mail received on or before this day (inclusive); before start_date is a 422.' })),
  ),
};

export const MailQuerySchema = Type.Object(dates);
export const MailV2QuerySchema = Type.Object({ ...dates, region: Type.Optional(Nullable(RegionInput)), ...V2ScopeQuerySchema.properties });
export const LocationParamsSchema = Type.Object({ region_platform_public_id: BoundedString(64) });
export const MailFileParamsSchema = Type.Object({ mail_id: BoundedString(64) });
// Generous bounds: anything that is not the exact signed value is a 403 from the link check, not a 422.
export const MailFileQuerySchema = Type.Object({
  expires: Type.Optional(BoundedString(2000, { description: 'Unix seconds after which the link no longer works.' })),
  signature: Type.Optional(BoundedString(2000, { description: 'HMAC-SHA256 of the mail id, its legal entity and `expires` (base64url).' })),
});

export const DocumentsSessionBodySchema = Type.Object({ callback_url: CallbackUrlString() }, { title: 'HostedSessionRequest' });

export const UploadQuerySchema = Type.Object({
  region: Type.Optional(Nullable(RegionInput)),
  type: Type.Optional(Nullable(MailTypeSchema)),
  received: Type.Optional(
    Nullable(DateString({ description: 'The day the mail was received; today (UTC) when absent. Not in the future.' })),
  ),
  sender: Type.Optional(Nullable(BoundedString(MAX_SENDER_LENGTH))),
  subject: Type.Optional(
    Nullable(BoundedString(MAX_SUBJECT_LENGTH, { description: 'What the mail is about, shown to the owner on the documents page.' })),
  ),
  file_name: Type.Optional(Nullable(BoundedString(MAX_FILE_NAME_LENGTH))),
});
