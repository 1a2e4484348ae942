// The `schema` of an extraction: a JSON Schema of a flat object, or a hint of field names and types
// ({"name": "string", "price": "number", "email": "email"}). Both become the same fields; each field's own JSON
// Schema (or null) is what every value is validated against with ajv, whichever engine found it.
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { ValidationIssue } from '../../../src/errors.js';
import { MAX_FIELDS } from './limits.js';

// ajv and ajv-formats are CommonJS: required with the first schema checked (a schema is checked inside the tool's
// synchronous input validation), not loaded by every gateway at start-up.
const require = createRequire(import.meta.url);

export type Scalar = 'string' | 'number' | 'integer' | 'boolean';
/** What a field holds, when it says so (a hint's type, a JSON Schema format), beyond its JSON type. */
export type Kind = 'email' | 'url' | 'phone' | 'date' | 'money' | 'person' | 'organization' | 'place';

export interface Field {
  name: string;
  type: Scalar;
  array: boolean;
  kind?: Kind;
  /** The JSON Schema one value of this field must match (its `items` for an array). */
  schema: Record<string, unknown>;
}

const HINTS: Record<string, { type: Scalar; kind?: Kind; format?: string }> = {
  string: { type: 'string' },
  text: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  email: { type: 'string', kind: 'email', format: 'email' },
  url: { type: 'string', kind: 'url', format: 'uri' },
  uri: { type: 'string', kind: 'url', format: 'uri' },
  phone: { type: 'string', kind: 'phone' },
  date: { type: 'string', kind: 'date', format: 'date' },
  money: { type: 'number', kind: 'money' },
  person: { type: 'string', kind: 'person' },
  organization: { type: 'string', kind: 'organization' },
  organisation: { type: 'string', kind: 'organization' },
  place: { type: 'string', kind: 'place' },
};

const FORMAT_KINDS: Record<string, Kind> = { email: 'email', uri: 'url', url: 'url', date: 'date', 'date-time': 'date' };
const NAME = /^[A-Za-z_][A-Za-z0-9_\- ]{0,63}$/;

let ajv: Ajv | undefined;
export function ajvInstance(): Ajv {
  if (!ajv) {
    const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
    // ajv-formats sets `exports.default` beside the function itself.
    const formats = require('ajv-formats') as { default?: (ajv: Ajv) => Ajv } & ((ajv: Ajv) => Ajv);
    ajv = new AjvClass({ allErrors: true, strict: false, logger: false });
    (formats.default ?? formats)(ajv);
  }
  return ajv;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A hint ("string", "email[]") or a property schema as a field; a string saying what is wrong otherwise. */
function fieldOf(name: string, spec: unknown): Field | string {
  if (typeof spec === 'string') {
    const array = spec.endsWith('[]');
    const hint = HINTS[(array ? spec.slice(0, -2) : spec).trim().toLowerCase()];
    if (!hint) return `unknown type "${spec}" (known: ${Object.keys(HINTS).join(', ')}, each optionally followed by [])`;
    return { name, type: hint.type, array, ...(hint.kind ? { kind: hint.kind } : {}), schema: { type: hint.type, ...(hint.format ? { format: hint.format } : {}) } };
  }
  if (!isObject(spec)) return 'expected a type name or a JSON Schema';
  let types = Array.isArray(spec.type) ? spec.type.filter((t) => t !== 'null') : [spec.type];
  if (types.length !== 1) return 'expected one type (string, number, integer, boolean, or an array of one of these), optionally with null';
  let item = spec;
  let array = false;
  if (types[0] === 'array') {
    if (!isObject(spec.items)) return 'an array field needs an `items` schema';
    item = spec.items;
    array = true;
    types = Array.isArray(item.type) ? item.type.filter((t) => t !== 'null') : [item.type];
  }
  const t = types[0];
  if (t === 'object' || t === 'array') return 'nested objects and arrays are not extracted: name flat fields (a string, number, integer or boolean, or an array of one)';
  if (t !== 'string' && t !== 'number' && t !== 'integer' && t !== 'boolean') return 'expected a type: string, number, integer or boolean';
  const format = typeof item.format === 'string' ? item.format : undefined;
  const kind = format ? FORMAT_KINDS[format] : undefined;
  const { type: _type, ...rest } = item;
  return { name, type: t, array, ...(kind ? { kind } : {}), schema: { ...rest, type: t } };
}

/** The fields of a schema, or the issues that make it unusable (422, located under `schema`). */
export function parseSchema(schema: Record<string, unknown>, at: (string | number)[] = ['schema']): { fields: Field[] } | { issues: ValidationIssue[] } {
  const isJsonSchema = schema.type === 'object' || isObject(schema.properties);
  const props = isJsonSchema ? schema.properties : schema;
  const where = isJsonSchema ? [...at, 'properties'] : at;
  if (!isObject(props) || Object.keys(props).length === 0) {
    return { issues: [{ loc: where, msg: 'Name at least one field: a JSON Schema with `properties`, or an object of field names and types.', type: 'value_error' }] };
  }
  const names = Object.keys(props);
  if (names.length > MAX_FIELDS) return { issues: [{ loc: where, msg: `At most ${MAX_FIELDS} fields.`, type: 'value_error' }] };
  const issues: ValidationIssue[] = [];
  const fields: Field[] = [];
  for (const name of names) {
    if (!NAME.test(name)) {
      issues.push({ loc: [...where, name], msg: 'A field name is a letter or _ then up to 63 letters, digits, _, - or spaces.', type: 'value_error' });
      continue;
    }
    const f = fieldOf(name, props[name]);
    if (typeof f === 'string') {
      issues.push({ loc: [...where, name], msg: f, type: 'value_error' });
      continue;
    }
    try {
      ajvInstance().compile(f.schema);
    } catch (err) {
      issues.push({ loc: [...where, name], msg: `Not a valid JSON Schema: ${(err as Error).message}`, type: 'value_error' });
      continue;
    }
    fields.push(f);
  }
  return issues.length ? { issues } : { fields };
}

/** The JSON Schema of a whole result: every field present, each a value of its schema or null, nothing else. */
export function resultSchema(fields: Field[], forModel = false): Record<string, unknown> {
  const one = (f: Field): Record<string, unknown> => {
    // Servers with strict structured output accept few keywords: they get the types; ajv checks the rest.
    const s = forModel ? { type: f.type } : f.schema;
    return f.array ? { type: ['array', 'null'], items: s } : forModel ? { type: [f.type, 'null'] } : { anyOf: [s, { type: 'null' }] };
  };
  return { type: 'object', properties: Object.fromEntries(fields.map((f) => [f.name, one(f)])), required: fields.map((f) => f.name), additionalProperties: false };
}

const validators = new WeakMap<Field, ValidateFunction>();
/** True when `value` is a valid value of the field (one item, for an array field). */
export function fits(f: Field, value: unknown): boolean {
  let v = validators.get(f);
  if (!v) validators.set(f, (v = ajvInstance().compile(f.schema)));
  return v(value) as boolean;
}
