import { InvalidInputError } from '../../lib/errors.js';
import { EVENT_TYPES, isEventType } from '../events/contract.js';
import type { DestinationGuard } from './contract.js';

/** pydantic's HttpUrl limit, as the request schema has it. */
export const MAX_URL_LENGTH = 2083;
export const MAX_DESCRIPTION_LENGTH = 500;
/** More entries than there are types can only repeat some. */
export const MAX_EVENT_TYPES = 100;

export interface UrlRules {
  guard: DestinationGuard;
  /** Production refuses plain http: the payloads describe businesses and the signature does not hide them. */
  requireHttps: boolean;
}

/**
 * The rules an endpoint URL obeys, checked again by the service for callers without a request schema (the CLI).
 * The destination guard runs last: it may resolve the host.
 */
export async function checkUrl(url: string, rules: UrlRules): Promise<string> {
  const refuse = (reason: string) => new InvalidInputError(['url'], reason, url);
  if (url.length > MAX_URL_LENGTH) throw refuse(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('not a valid absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw refuse("the URL scheme must be 'http' or 'https'");
  if (parsed.username || parsed.password)
    throw refuse('credentials in the URL are not allowed: deliveries are authenticated by their signature');
  if (url.includes('#')) throw refuse('a fragment (#…) is never sent to a server; remove it');
  if (rules.requireHttps && parsed.protocol !== 'https:') throw refuse('the URL must use https in production');
  try {
    await rules.guard.check(url);
  } catch (error) {
    throw refuse(`the destination is not allowed: ${(error as Error).message} (webhooks are only delivered to public addresses)`);
  }
  return url;
}

/** null or absent: every type. Duplicates are dropped; order is the caller's. */
export function checkEventTypes(types: readonly string[] | null | undefined): string[] | null {
  if (types === null || types === undefined) return null;
  if (types.length === 0)
    throw new InvalidInputError(['event_types'], 'give at least one event type, or null (or leave it out) for every type', types);
  if (types.length > MAX_EVENT_TYPES) throw new InvalidInputError(['event_types'], `at most ${MAX_EVENT_TYPES} event types`, types);
  types.forEach((type, index) => {
    if (!isEventType(type))
      throw new InvalidInputError(['event_types', index], `unknown event type '${type}'; known types: ${EVENT_TYPES.join(', ')}`, type);
  });
  return [...new Set(types)];
}

/** An empty description is no description. */
export function checkDescription(description: string | null | undefined): string | null {
  if (description === null || description === undefined) return null;
  if ([...description].length > MAX_DESCRIPTION_LENGTH) {
    throw new InvalidInputError(['description'], `at most ${MAX_DESCRIPTION_LENGTH} characters`, description);
  }
  const trimmed = description.trim();
  return trimmed === '' ? null : trimmed;
}
