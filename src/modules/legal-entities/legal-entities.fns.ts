import type { AddressValue, LegalEntityRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { normaliseApiPhone } from '../../lib/phone-number.js';
import {
  MONTH_NAMES,
  type AccountLegalEntity,
  type EmbeddedSignupRequest,
  type HostedSignupRequest,
  type PlatformLegalEntity,
  type PlatformSignupRequest,
} from './legal-entities.schemas.js';

/** The stored profile of a legal entity, in the database's (unversioned) spelling. */
export type EntityProfile = Omit<
  LegalEntityRow,
  | 'id'
  | 'platform_id'
  | 'status'
  | 'payroll_connected_at'
  | 'last_payroll_update'
  | 'activated_at'
  | 'signup_step'
  | 'signup_confirmed_steps'
  | 'created_at'
  | 'updated_at'
  | 'next_replan_on'
  | 'catalog_revision'
>;

type AddressInput = {
  id?: string | null;
  address_line_1: string;
  address_line_2?: string | null;
  city: string;
  state: string;
  country: string;
  postal_code: string;
};

/** Keeps a caller's address id, or gives the address one so it can be referred to later. */
function address(input: AddressInput | null | undefined): AddressValue | null | undefined {
  if (input === undefined || input === null) return input;
  return {
    id: input.id ?? newId('addr'),
    address_line_1: input.address_line_1,
    address_line_2: input.address_line_2 ?? null,
    city: input.city,
    state: input.state,
    country: input.country,
    postal_code: input.postal_code,
  };
}

/** 123456789 and 12-3456789 are the same EIN; store the hyphenated form. */
const ein = (value: string | null | undefined) => (typeof value === 'string' ? value.replace(/^(\d{2})-?(\d{7})$/, '$1-$2') : value);

const phone = (value: string | null | undefined) => (typeof value === 'string' ? normaliseApiPhone(value) : value);

export const monthNumber = (name: string | null | undefined) =>
  typeof name === 'string' ? MONTH_NAMES.indexOf(name as (typeof MONTH_NAMES)[number]) + 1 : name;

/** Drops keys whose value is undefined: absent fields must not overwrite stored ones. */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function profileFromEmbedded(body: EmbeddedSignupRequest): Partial<EntityProfile> {
  return defined({
    ...body,
    incorporation_location: undefined,
    incorporation_region: body.incorporation_location,
    ein: ein(body.ein),
    business_phone: phone(body.business_phone),
    business_address: address(body.business_address),
    mailing_address: address(body.mailing_address),
  });
}

export function profileFromV2(body: PlatformSignupRequest): Partial<EntityProfile> {
  return defined({
    ...body,
    tax_class: undefined,
    incorporated_date: undefined,
    tax_classification: body.tax_class,
    incorporation_date: body.incorporated_date,
    ein: ein(body.ein),
    accounting_year_end: monthNumber(body.accounting_year_end),
    business_phone: phone(body.business_phone),
    business_address: address(body.business_address),
    mailing_address: address(body.mailing_address),
  });
}

export function profileFromHosted(body: HostedSignupRequest): Partial<EntityProfile> {
  const info = body.business_information ?? {};
  return defined({
    ...info,
    business_name: body.business_name,
    user_email: body.user_email,
    external_company_id: body.external_company_id,
    ein: ein(info.ein),
  });
}

/** A complete profile for a new entity: what was not sent is null. */
export function completeProfile(partial: Partial<EntityProfile> & { business_name: string }): EntityProfile {
  const empty: Omit<EntityProfile, 'business_name'> = {
    user_email: null,
    entity_type: null,
    tax_classification: null,
    incorporation_region: null,
    incorporation_date: null,
    ein: null,
    llc_managed_type: null,
    business_purpose: null,
    business_phone: null,
    business_email: null,
    business_address: null,
    mailing_address: null,
    naics_code: null,
    accounting_method: null,
    accounting_period: null,
    accounting_year_end: null,
    futa_liability_year: null,
    external_company_id: null,
    authorization_callback_url: null,
  };
  return { ...empty, ...partial };
}

function common(row: LegalEntityRow) {
  return {
    id: row.id,
    name: row.business_name,
    status: row.status,
    notices_url: null,
    user_email: row.user_email,
    business_name: row.business_name,
    entity_type: row.entity_type as AccountLegalEntity['entity_type'],
    tax_classification: row.tax_classification as AccountLegalEntity['tax_classification'],
  };
}

function details(row: LegalEntityRow) {
  return {
    ein: row.ein,
    llc_managed_type: row.llc_managed_type as AccountLegalEntity['llc_managed_type'],
    business_purpose: row.business_purpose,
    business_phone: row.business_phone,
    business_email: row.business_email,
    business_address: row.business_address,
    mailing_address: row.mailing_address,
    naics_code: row.naics_code,
    accounting_method: row.accounting_method as AccountLegalEntity['accounting_method'],
    accounting_period: row.accounting_period as AccountLegalEntity['accounting_period'],
    external_company_id: row.external_company_id,
  };
}

export function toAccountLegalEntity(row: LegalEntityRow): AccountLegalEntity {
  return {
    ...common(row),
    incorporation_location: row.incorporation_region,
    incorporation_date: row.incorporation_date,
    ...details(row),
    accounting_year_end: row.accounting_year_end as AccountLegalEntity['accounting_year_end'],
    futa_liability_year: row.futa_liability_year,
  };
}

export function toPlatformLegalEntity(row: LegalEntityRow): PlatformLegalEntity {
  return {
    ...common(row),
    incorporation_region: row.incorporation_region,
    incorporated_date: row.incorporation_date,
    ...details(row),
    accounting_year_end: row.accounting_year_end ? MONTH_NAMES[row.accounting_year_end - 1]! : null,
    futa_liability_year: row.futa_liability_year ? Number(row.futa_liability_year) : null,
    last_payroll_update: row.last_payroll_update?.toISOString() ?? null,
  };
}
