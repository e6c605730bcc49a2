// Phone numbers as business owners type them, read with libphonenumber-js (Google's libphonenumber metadata):
// US numbers in any common format, other countries with a leading +. The hosted signup stores E.164 ("+14155550134"),
// and pages show numbers back the way people read them. See docs/decisions/0041-hosted-signup-for-new-owners.md.
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export type PhoneResult = { ok: true; e164: string } | { ok: false; message: string };

export const PHONE_HINT = "A US number such as (415) 555-0134, or another country's starting with +, e.g. +44 20 7946 0958";

/** A typed phone number → E.164, or a message saying what is wrong with it. */
export function normalisePhone(input: string): PhoneResult {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US');
  if (!parsed || !parsed.isValid()) {
    const digits = input.replace(/\D/g, '');
    const message =
      digits.length > 0 && digits.length < 10 && !input.trim().startsWith('+')
        ? 'Enter the full number with its area code, e.g. (415) 555-0134'
        : 'Enter a valid phone number, e.g. (415) 555-0134 (or +44 20 7946 0958 outside the US)';
    return { ok: false, message };
  }
  // E.164 has no extension; keeping the main line and dropping "ext. 12" silently would store something else.
  if (parsed.ext) return { ok: false, message: 'Enter the main number without an extension' };
  return { ok: true, e164: parsed.number };
}

/** A stored number as people read it: (415) 555-0134 in the US, +44 20 7946 0958 elsewhere; as stored when unreadable. */
export function formatPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored, 'US');
  if (!parsed || !parsed.isValid()) return stored;
  return parsed.country === 'US' ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * A phone number sent through the API: E.164 when libphonenumber-js reads a number of a possible length for its country
 * ("(555) 123-4567" → "+15551234567"), with an extension kept in RFC 3966's form ("555-123-4567 x12" →
 * "+15551234567;ext=12", which reads back the same); anything it cannot read is kept exactly as sent. The API never
 * refuses a phone on its format (docs/decisions/0076-reference-valid-requests.md); the hosted signup, where a person
 * can fix a typo, still asks for a valid number (normalisePhone).
 */
export function normaliseApiPhone(input: string): string {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US');
  if (!parsed || !parsed.isPossible()) return input;
  return parsed.ext ? `${parsed.number};ext=${parsed.ext}` : parsed.number;
}
