import { buildBoolean, buildInteger, buildNumber, buildString, INT_STRING, parseIntString } from './scalars.js';
import type { ValidationIssue } from '../../lib/errors.js';
import { buildReader } from './input-readers.js';
import { INPUT_READER, type SchemaNode, type Validator } from './types.js';

export type { SchemaNode, Validator, ValidationIssue };

const cache = new WeakMap<object, Validator>();

export function compile(schema: SchemaNode): Validator {
  let validator = cache.get(schema);
  if (!validator) {
    validator = build(schema);
    cache.set(schema, validator);
  }
  return validator;
}

function build(schema: SchemaNode): Validator {
  if (schema.anyOf) return buildAnyOf(schema.anyOf);
  const reader = schema[INPUT_READER];
  if (reader !== undefined) return buildReader(reader, build({ ...schema, [INPUT_READER]: undefined }));
  if (schema.enum) return buildEnum(schema.enum, schema.type === 'integer');
  if ('const' in schema) return buildEnum([schema.const], false, 'literal_error');
  switch (schema.type) {
    case 'object':
      return schema.properties ? buildModel(schema) : buildDict(schema);
    case 'array':
      return buildList(schema);
    case 'string':
      return buildString(schema);
    case 'integer':
      return buildInteger(schema);
    case 'number':
      return buildNumber(schema);
    case 'boolean':
      return buildBoolean();
    case 'null':
      return (input, loc, issues) => {
        if (input !== null) issues.push({ type: 'none_required', loc, msg: 'Input should be None', input });
        return null;
      };
    default:
      return (input) => input;
  }
}

/** Whether the input is already of the option's JSON type (pydantic's "smart" unions try those first). */
function exactType(option: SchemaNode, input: unknown): boolean {
  switch (option.type) {
    case 'boolean':
      return typeof input === 'boolean';
    case 'integer':
      return typeof input === 'number' && Number.isInteger(input);
    case 'number':
      return typeof input === 'number';
    case 'string':
      return typeof input === 'string';
    case 'array':
      return Array.isArray(input);
    case 'object':
      return isPlainObject(input);
    default:
      return false;
  }
}

function buildAnyOf(options: SchemaNode[]): Validator {
  const nullable = options.some((o) => o.type === 'null');
  const schemas = options.filter((o) => o.type !== 'null');
  const rest = schemas.map((o) => compile(o));
  return (input, loc, issues) => {
    if (input === null && nullable) return null;
    // Optional[X]: pydantic reports X's errors directly.
    if (rest.length === 1) return rest[0]!(input, loc, issues);
    for (const [i, option] of rest.entries()) {
      if (!exactType(schemas[i]!, input)) continue;
      const attempt: ValidationIssue[] = [];
      const value = option(input, loc, attempt);
      if (attempt.length === 0) return value;
    }
    const collected: ValidationIssue[] = [];
    for (const option of rest) {
      const attempt: ValidationIssue[] = [];
      const value = option(input, loc, attempt);
      if (attempt.length === 0) return value;
      collected.push(...attempt);
    }
    issues.push(...collected);
    return undefined;
  };
}

export function pythonRepr(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);
}

/** pydantic's "'a', 'b' or 'c'". */
export function expectedList(values: unknown[]): string {
  const reprs = values.map(pythonRepr);
  return reprs.length <= 1 ? reprs.join('') : `${reprs.slice(0, -1).join(', ')} or ${reprs.at(-1)}`;
}

function buildEnum(values: unknown[], integer: boolean, type = 'enum'): Validator {
  const expected = expectedList(values);
  const allowed = new Set(values);
  return (input, loc, issues) => {
    if (allowed.has(input)) return input;
    // Integer enums take what a lax int takes: integer-looking strings and booleans.
    if (integer) {
      if (typeof input === 'string' && INT_STRING.test(input) && !Number.isSafeInteger(parseIntString(input))) {
        // pydantic reports the parsed (big) integer as the input here.
        issues.push({
          type: 'int_parsing_size',
          loc,
          msg: 'Unable to parse input string as an integer, exceeded maximum size',
          input: parseIntString(input),
        });
        return undefined;
      }
      const asInt =
        typeof input === 'boolean' ? Number(input) : typeof input === 'string' && INT_STRING.test(input) ? parseIntString(input) : null;
      if (asInt !== null && allowed.has(asInt)) return asInt;
    }
    issues.push({ type, loc, msg: `Input should be ${expected}`, input, ctx: { expected } });
    return undefined;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function buildModel(schema: SchemaNode): Validator {
  const fields = Object.entries(schema.properties ?? {}).map(([name, node]) => ({
    name,
    node,
    required: schema.required?.includes(name) ?? false,
    nullable: node.anyOf?.some((option) => option.type === 'null') ?? false,
    validate: compile(node),
  }));
  return (input, loc, issues) => {
    if (!isPlainObject(input)) {
      issues.push({
        type: 'model_attributes_type',
        loc,
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input,
      });
      return undefined;
    }
    const output: Record<string, unknown> = {};
    for (const field of fields) {
      const present = Object.prototype.hasOwnProperty.call(input, field.name);
      // An optional field sent as "" is not sent (a nullable one is null, which clears it on an update): clients
      // that send every form field as a string mean "none" by "" (docs/decisions/0076-reference-valid-requests.md).
      const blank = present && !field.required && input[field.name] === '';
      if (blank && field.nullable) {
        output[field.name] = null;
        continue;
      }
      if (!present || blank) {
        if (field.required) issues.push({ type: 'missing', loc: [...loc, field.name], msg: 'Field required', input });
        else if ('default' in field.node) output[field.name] = structuredClone(field.node.default);
        continue;
      }
      output[field.name] = field.validate(input[field.name], [...loc, field.name], issues);
    }
    return output;
  };
}

function buildDict(schema: SchemaNode): Validator {
  const value = typeof schema.additionalProperties === 'object' ? compile(schema.additionalProperties) : null;
  const key = schema.propertyNames ? compile(schema.propertyNames) : null;
  return (input, loc, issues) => {
    if (!isPlainObject(input)) {
      issues.push({ type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input });
      return undefined;
    }
    const entries = Object.entries(input);
    const before = issues.length;
    const output: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      const checkedKey = key ? key(k, [...loc, k, '[key]'], issues) : k;
      const checkedValue = value ? value(v, [...loc, k], issues) : v;
      if (typeof checkedKey === 'string') output[checkedKey] = checkedValue;
    }
    // pydantic checks the length only once every entry is valid.
    if (issues.length === before && schema.maxProperties !== undefined && entries.length > schema.maxProperties) {
      issues.push(tooLong('Dictionary', schema.maxProperties, entries.length, loc, input));
      return undefined;
    }
    return output;
  };
}

function tooLong(kind: string, max: number, actual: number, loc: (string | number)[], input: unknown): ValidationIssue {
  return {
    type: 'too_long',
    loc,
    msg: `${kind} should have at most ${max} item${max === 1 ? '' : 's'} after validation, not ${actual}`,
    input,
    ctx: { field_type: kind, max_length: max, actual_length: actual },
  };
}

function buildList(schema: SchemaNode): Validator {
  const item = schema.items ? compile(schema.items) : (x: unknown) => x;
  return (input, loc, issues) => {
    if (!Array.isArray(input)) {
      issues.push({ type: 'list_type', loc, msg: 'Input should be a valid list', input });
      return undefined;
    }
    if (schema.maxItems !== undefined && input.length > schema.maxItems) {
      issues.push(tooLong('List', schema.maxItems, input.length, loc, input));
      return undefined;
    }
    return input.map((element, index) => item(element, [...loc, index], issues));
  };
}
