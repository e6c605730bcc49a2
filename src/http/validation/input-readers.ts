import type { Validator } from './types.js';

/**
 * Readers for values a request may give in more than one spelling (e.g. a state as "CA", "California" or its location
 * id): a schema names one by its `x-input-reader` keyword (an OpenAPI extension, so the document keeps the schema's
 * own type and enum), and the validator turns the spelling into the canonical value before the operation sees it.
 * The module that owns the vocabulary defines its reader beside the schema (legal-entities/state-code.ts).
 */
export interface InputReader {
  /** The canonical value, or undefined when the input is none of the accepted spellings. */
  read(input: string): string | undefined;
}

const readers = new Map<string, InputReader>();

export function defineInputReader(name: string, reader: InputReader): void {
  readers.set(name, reader);
}

/**
 * A string read by the named reader; anything else goes to `fallback` (the schema's own validator), so an unknown value
 * gets the schema's usual issue (pydantic's, e.g. the enum's list of codes).
 */
export function buildReader(name: string, fallback: Validator): Validator {
  const reader = readers.get(name);
  if (!reader) throw new Error(`no input reader '${name}' is defined`);
  return (input, loc, issues) => {
    if (typeof input !== 'string') return fallback(input, loc, issues);
    const value = reader.read(input);
    return value !== undefined ? value : fallback(input, loc, issues);
  };
}
