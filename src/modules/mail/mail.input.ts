import { regionByCode, type Region } from '../../catalog/regions.js';
import type { MailType } from '../../db/schema.js';
import { parseDate } from '../../http/validation/dates.js';
import { HttpError, InvalidInputError } from '../../lib/errors.js';

/**
 * The rules of mail intake and listing, each rejecting one input fact with InvalidInputError named by
 * the operation's input fields (`file`, `region`, `type`, `received`, `sender`, `file_name`, `end_date`):
 * the operator routes place them in the query (the file in the body), the CLI names its flags.
 */
export const MAIL_TYPES = ['registered-agent', 'external-mail'] as const satisfies readonly MailType[];
export const MAX_SENDER_LENGTH = 200;
export const MAX_SUBJECT_LENGTH = 200;
export const MAX_FILE_NAME_LENGTH = 255;

/** How far from its end a PDF's `%%EOF` marker may be (writers add a newline or a little padding). */
const EOF_WINDOW = 1024;
const DAY_MS = 86_400_000;

export function checkPdf(bytes: Buffer, maxBytes: number): void {
  if (bytes.length > maxBytes) throw new HttpError(413, `The file is larger than the limit of ${maxBytes} bytes`);
  if (bytes.length === 0) throw new InvalidInputError(['file'], 'the file is empty; send the bytes of a PDF', null);
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') {
    throw new InvalidInputError(['file'], 'the file is not a PDF (a PDF starts with %PDF-)', null);
  }
  if (
    !bytes
      .subarray(Math.max(0, bytes.length - EOF_WINDOW))
      .toString('latin1')
      .includes('%%EOF')
  ) {
    throw new InvalidInputError(['file'], 'the PDF is incomplete: it has no %%EOF marker at its end (was the upload cut short?)', null);
  }
}

/** The day the mail was received: today (UTC) when absent; never later than tomorrow's UTC date. */
export function checkReceived(value: string | null | undefined, now: Date): string {
  const today = now.toISOString().slice(0, 10);
  if (value === undefined || value === null || value === '') return today;
  const parsed = parseDate(value);
  if (!parsed.ok || typeof parsed.value !== 'string')
    throw new InvalidInputError(['received'], `'${value}' is not a date (use YYYY-MM-DD)`, value);
  // "Today" anywhere in the US is at most the UTC date: one day of slack covers clocks and time zones.
  const latest = new Date(now.getTime() + DAY_MS).toISOString().slice(0, 10);
  if (parsed.value > latest) throw new InvalidInputError(['received'], `the received date ${parsed.value} is in the future`, value);
  return parsed.value;
}

/** Trimmed text, null when blank; bounded and free of control characters. */
export function optionalText(value: string | null | undefined, field: string, max: number): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (text.length > max) throw new InvalidInputError([field], `${field} must be at most ${max} characters`, value);
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new InvalidInputError([field], `${field} must not contain control characters`, value);
  return text;
}

/** A two-letter state code, or null when absent. */
export function checkRegion(code: string | null | undefined): Region | null {
  if (!code) return null;
  const region = regionByCode(code);
  if (!region || code.length !== 2)
    throw new InvalidInputError(['region'], `unknown region '${code}': use a two-letter state code such as CA`, code);
  return region;
}

export function checkType(type: MailType | null | undefined): MailType {
  const value = type ?? 'registered-agent';
  if (!MAIL_TYPES.includes(value)) throw new InvalidInputError(['type'], `type must be one of ${MAIL_TYPES.join(', ')}`, value);
  return value;
}

/** Listing dates are inclusive; a start after the end is refused on `end_date`. */
export function checkDateRange(startDate: string | null | undefined, endDate: string | null | undefined): void {
  if (startDate && endDate && startDate > endDate) {
    throw new InvalidInputError(['end_date'], `end_date (${endDate}) is before start_date (${startDate})`, endDate);
  }
}
