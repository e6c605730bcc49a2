// The validator's types, apart from validator.ts so that scalars.ts (which validator.ts imports) can use them
// without importing validator.ts back.
import type { ValidationIssue } from '../../lib/errors.js';

/** Validates and coerces (pydantic "lax" mode); pushes issues and returns the coerced value. */
export type Validator = (input: unknown, loc: (string | number)[], issues: ValidationIssue[]) => unknown;

/** The keyword naming a schema's input reader (input-readers.ts). */
export const INPUT_READER = 'x-input-reader';

/** JSON Schema as TypeBox emits it, plus our `format` values: date, email, http-url. */
export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  propertyNames?: SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  maxProperties?: number;
  default?: unknown;
  title?: string;
  [INPUT_READER]?: string;
}
