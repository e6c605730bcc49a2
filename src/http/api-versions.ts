/**
 * The dated API versions (docs/versions.md): the one list of them, the `Statehouse-Version` header that selects one
 * for a request, and how a header value is read. A platform's default (its pin) is set when its first API key is made
 * (modules/platforms); a request's header overrides it for that request. Pure: no I/O.
 */

/** The request and response header. */
export const API_VERSION_HEADER = 'statehouse-version';

export interface ApiVersion {
  /** YYYY-MM-DD: the day the version's interface was fixed. */
  version: string;
  /** What changed from the version before it (the first one: what it is). */
  changes: readonly string[];
}

/** Oldest first. A new version is appended here, with its changes, and documented in docs/versions.md. */
export const API_VERSIONS: readonly ApiVersion[] = [
  {
    version: '2026-11-28',
    changes: [
      'The first dated version: the interface as of this day, both path families (the reference paths and /v2) as documented in /openapi.json.',
    ],
  },
];

export const FIRST_API_VERSION = API_VERSIONS[0]!.version;
export const CURRENT_API_VERSION = API_VERSIONS.at(-1)!.version;

const KNOWN = new Set(API_VERSIONS.map((v) => v.version));
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const isApiVersion = (value: string): boolean => KNOWN.has(value);

/** The sentence every refusal of a version ends with. */
export const knownVersionsSentence = () => `Known versions: ${API_VERSIONS.map((v) => v.version).join(', ')}.`;

/**
 * A request's `Statehouse-Version` header: null when absent, the version when known, else the reason it is refused
 * (malformed: not one YYYY-MM-DD date; unknown: a date that is not a version).
 */
export function readApiVersionHeader(value: string | string[] | undefined): { version: string | null } | { refused: string } {
  if (value === undefined) return { version: null };
  const given = Array.isArray(value) ? value : [value];
  if (given.length !== 1) return { refused: `Send one Statehouse-Version header. ${knownVersionsSentence()}` };
  const text = given[0]!.trim();
  if (!DATE.test(text)) return { refused: `Statehouse-Version must be a date, YYYY-MM-DD. ${knownVersionsSentence()}` };
  if (!KNOWN.has(text)) return { refused: `Unknown Statehouse-Version '${text}'. ${knownVersionsSentence()}` };
  return { version: text };
}
