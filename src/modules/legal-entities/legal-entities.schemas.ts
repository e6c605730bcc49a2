import { Type, type Static } from 'typebox';
import { RegionInput, StateCode } from './state-code.js';
import {
  BoundedString,
  DateString,
  EmailString,
  CallbackUrlString,
  IntegerEnum,
  LONG_TEXT,
  Nullable,
  StringEnum,
} from '../../http/schemas.js';
import {
  ACCOUNTING_METHODS,
  ACCOUNTING_PERIODS,
  ENTITY_TYPES,
  LLC_MANAGED_TYPES,
  MONTH_NAMES,
  TAX_CLASSES,
} from '../../lib/entity-values.js';

export { ACCOUNTING_METHODS, ACCOUNTING_PERIODS, ENTITY_TYPES, LLC_MANAGED_TYPES, MONTH_NAMES, TAX_CLASSES };
export const MONTH_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

export const EntityType = StringEnum(ENTITY_TYPES, { title: 'EntityTypeEnum' });
export const TaxClass = StringEnum(TAX_CLASSES, {
  title: 'TaxClassEnum',
  description: 'The IRS tax classification, which can differ from the entity type by election (e.g. an LLC taxed as an S corporation).',
});
export const LLCManagedType = StringEnum(LLC_MANAGED_TYPES, { title: 'LLCManagedTypeEnum' });
export const AccountingMethod = StringEnum(ACCOUNTING_METHODS, { title: 'AccountingMethod' });
export const AccountingPeriod = StringEnum(ACCOUNTING_PERIODS, { title: 'AccountingPeriod' });
export const AccountingYearEndMonth = StringEnum(MONTH_NAMES, { title: 'AccountingYearEndMonth' });
export const AccountingYearEndMonthNumber = IntegerEnum(MONTH_NUMBERS, { title: 'AccountingYearEndMonthNumber' });

// Formats the reference leaves open; see docs/decisions/0003-field-formats.md.
const Ein = Type.String({ pattern: '^\\d{2}-?\\d{7}$', description: 'Federal EIN, 9 digits, e.g. 12-3456789.' });
const Phone = Type.String({
  maxLength: 64,
  description:
    'Phone number as people write it, e.g. (415) 555-0134 or 555-123-4567 x12: stored in E.164 (+14155550134, an extension as ;ext=12) when it reads as a phone number, otherwise as sent.',
});
const Naics = Type.String({ pattern: '^\\d{2,6}$', description: 'NAICS code, 2 to 6 digits.' });
const Year = Type.String({ pattern: '^(19|20)\\d{2}$', description: 'A four-digit year, e.g. 2024.' });
const Name = BoundedString(200, { minLength: 1 });

export const AddressSchema = Type.Object(
  {
    id: Type.Optional(Nullable(BoundedString(64))),
    address_line_1: BoundedString(200, { minLength: 1 }),
    address_line_2: Type.Optional(Nullable(BoundedString(200))),
    city: BoundedString(100, { minLength: 1 }),
    state: BoundedString(100, { minLength: 1 }),
    country: BoundedString(100, { minLength: 1 }),
    postal_code: BoundedString(20, { minLength: 1 }),
  },
  { title: 'Address' },
);

/** Optional fields shared by both signup bodies. */
const optionalProfile = {
  ein: Type.Optional(Nullable(Ein)),
  llc_managed_type: Type.Optional(Nullable(LLCManagedType)),
  business_purpose: Type.Optional(Nullable(BoundedString(LONG_TEXT))),
  business_phone: Type.Optional(Nullable(Phone)),
  business_email: Type.Optional(Nullable(EmailString())),
  business_address: Type.Optional(Nullable(AddressSchema)),
  mailing_address: Type.Optional(Nullable(AddressSchema)),
  naics_code: Type.Optional(Nullable(Naics)),
  accounting_method: Type.Optional(Nullable(AccountingMethod)),
  accounting_period: Type.Optional(Nullable(AccountingPeriod)),
};

const platformFields = {
  futa_liability_year: Type.Optional(Nullable(Year)),
  external_company_id: Type.Optional(Nullable(Name)),
  authorization_callback_url: Type.Optional(
    Nullable(CallbackUrlString({ description: 'Where the user is sent after finishing the hosted signup.' })),
  ),
};

/** POST /accounts/signup (unversioned spelling). */
export const EmbeddedSignupRequestSchema = Type.Object(
  {
    user_email: EmailString(),
    business_name: Name,
    entity_type: EntityType,
    tax_classification: TaxClass,
    incorporation_location: RegionInput,
    incorporation_date: DateString(),
    ...optionalProfile,
    accounting_year_end: Type.Optional(Nullable(AccountingYearEndMonthNumber)),
    ...platformFields,
  },
  { title: 'EmbeddedSignupRequest' },
);
export type EmbeddedSignupRequest = Static<typeof EmbeddedSignupRequestSchema>;

export const EmbeddedSignupResponseSchema = Type.Object(
  {
    legal_entity_id: Type.String(),
    authorization_url: Nullable(Type.String({ description: 'Deprecated: same as url.' })),
    url: Nullable(Type.String({ description: 'Single-use URL where the user completes signup.' })),
  },
  { title: 'EmbeddedSignupResponse' },
);

/** POST /v2/signup. */
export const PlatformSignupRequestSchema = Type.Object(
  {
    user_email: EmailString(),
    business_name: Name,
    entity_type: EntityType,
    tax_class: TaxClass,
    incorporation_region: RegionInput,
    incorporated_date: DateString(),
    ...optionalProfile,
    accounting_year_end: Type.Optional(Nullable(AccountingYearEndMonth)),
    ...platformFields,
  },
  { title: 'PlatformSignupRequest' },
);
export type PlatformSignupRequest = Static<typeof PlatformSignupRequestSchema>;

export const PlatformSignupResponseSchema = Type.Object(
  {
    legal_entity_id: Type.String(),
    url: Nullable(Type.String({ description: 'The next URL to follow to complete signup.' })),
  },
  { title: 'PlatformSignupResponse' },
);

export const BusinessInformationSchema = Type.Object(
  {
    incorporation_region: Type.Optional(Nullable(RegionInput)),
    entity_type: Type.Optional(Nullable(EntityType)),
    tax_classification: Type.Optional(Nullable(TaxClass)),
    llc_managed_type: Type.Optional(Nullable(LLCManagedType)),
    business_name: Type.Optional(Nullable(Name)),
    business_purpose: Type.Optional(Nullable(BoundedString(LONG_TEXT))),
    ein: Type.Optional(Nullable(Ein)),
    incorporation_date: Type.Optional(Nullable(DateString())),
    naics_code: Type.Optional(Nullable(Naics)),
    accounting_method: Type.Optional(Nullable(AccountingMethod)),
    accounting_period: Type.Optional(Nullable(AccountingPeriod)),
    accounting_year_end: Type.Optional(Nullable(AccountingYearEndMonthNumber)),
    futa_liability_year: Type.Optional(Nullable(Year)),
  },
  { title: 'HostedSignupRequestBusinessInformation' },
);

/** POST /accounts/signup/sessions, /v2/signup/sessions and /v2/signup/session. */
export const HostedSignupRequestSchema = Type.Object(
  {
    business_name: Name,
    user_email: EmailString(),
    callback_url: CallbackUrlString({ description: 'Where the user is redirected after completing signup.' }),
    legal_entity_id: Type.Optional(Nullable(BoundedString(64, { description: 'Resume the signup of an entity created earlier.' }))),
    business_information: Type.Optional(Nullable(BusinessInformationSchema)),
    external_company_id: Type.Optional(Nullable(Name)),
  },
  { title: 'HostedSignupRequest' },
);
export type HostedSignupRequest = Static<typeof HostedSignupRequestSchema>;

export const HostedSignupResponseSchema = Type.Object(
  {
    url: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    legal_entity_id: Type.String(),
  },
  { title: 'HostedSignupResponse' },
);

export const LegacyHostedSignupResponseSchema = Type.Object(
  { signup_url: Type.String({ description: 'Deprecated: same as url.' }), ...HostedSignupResponseSchema.properties },
  { title: 'HostedSignupResponse' },
);

const LegalEntityStatus = StringEnum(['inactive', 'active'] as const, {
  description: 'inactive until the user completes the hosted signup.',
});

const entityCommon = {
  id: Type.String(),
  name: Type.String(),
  status: LegalEntityStatus,
  notices_url: Nullable(Type.String()),
  user_email: Nullable(Type.String()),
  business_name: Nullable(Type.String()),
  entity_type: Nullable(EntityType),
  tax_classification: Nullable(TaxClass),
};

const entityDetails = {
  ein: Nullable(Type.String()),
  llc_managed_type: Nullable(LLCManagedType),
  business_purpose: Nullable(Type.String()),
  business_phone: Nullable(Type.String()),
  business_email: Nullable(Type.String()),
  business_address: Nullable(AddressSchema),
  mailing_address: Nullable(AddressSchema),
  naics_code: Nullable(Type.String()),
  accounting_method: Nullable(AccountingMethod),
  accounting_period: Nullable(AccountingPeriod),
};

/** GET /legal_entity. */
export const AccountLegalEntitySchema = Type.Object(
  {
    ...entityCommon,
    incorporation_location: Nullable(Type.String()),
    incorporation_date: Nullable(Type.String({ format: 'date' })),
    ...entityDetails,
    accounting_year_end: Nullable(AccountingYearEndMonthNumber),
    futa_liability_year: Nullable(Type.String()),
    external_company_id: Nullable(Type.String()),
  },
  { title: 'AccountLegalEntity' },
);
export type AccountLegalEntity = Static<typeof AccountLegalEntitySchema>;

/** GET /v2/legal_entity. */
export const PlatformLegalEntitySchema = Type.Object(
  {
    ...entityCommon,
    incorporation_region: Nullable(StateCode),
    incorporated_date: Nullable(Type.String({ format: 'date' })),
    ...entityDetails,
    accounting_year_end: Nullable(AccountingYearEndMonth),
    futa_liability_year: Nullable(Type.Integer()),
    last_payroll_update: Nullable(Type.String({ format: 'date-time' })),
    external_company_id: Nullable(Type.String()),
  },
  { title: 'PlatformLegalEntity' },
);
export type PlatformLegalEntity = Static<typeof PlatformLegalEntitySchema>;

/** The odd query parameters the reference's /v2 reads declare; see docs/decisions/0005-locations-and-regions.md. */
