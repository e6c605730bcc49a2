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
  /** The 422's message (after "Input should be "), saying what is accepted. */
  expected: string;
}

const readers = new Map<string, InputReader>();

export function defineInputReader(name: string, reader: InputReader): void {
  readers.set(name, reader);
}

/** A string read by the named reader; other types go to `fallback` (the schema's own validator) for their usual issue. */
export function buildReader(name: string, fallback: Validator): Validator {
  const reader = readers.get(name);
  if (!reader) throw new Error(`no input reader '${name}' is defined`);
  return (input, loc, issues) => {
    if (typeof input !== 'string') return fallback(input, loc, issues);
    const value = reader.read(input);
    if (value !== undefined) return value;
    issues.push({ type: 'enum', loc, msg: `Input should be ${reader.expected}`, input, ctx: { expected: reader.expected } });
    return undefined;
  };
}
