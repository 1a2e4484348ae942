// The `schema` of an extraction: a JSON Schema of an object, or a hint of field names and types
// ({"name": "string", "price": "number", "email": "email", "address": {"city": "string"}, "offers": [{"price":
// "number"}]}). Both become the same fields, nested where the schema nests: an object field has fields of its own,
// and any field may be an array. Each scalar field's own JSON Schema is what every value is validated against with
// ajv, whichever engine found it; an object's value is built from its fields' values.
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { ValidationIssue } from '../../../src/errors.js';
import { MAX_FIELDS, MAX_SCHEMA_DEPTH, MAX_SCHEMA_FIELDS } from './limits.js';

// ajv and ajv-formats are CommonJS: required with the first schema checked (a schema is checked inside the tool's
// synchronous input validation), not loaded by every gateway at start-up.
const require = createRequire(import.meta.url);

export type Scalar = 'string' | 'number' | 'integer' | 'boolean';
/** What a field holds, when it says so (a hint's type, a JSON Schema format), beyond its JSON type. */
export type Kind = 'email' | 'url' | 'phone' | 'date' | 'money' | 'person' | 'organization' | 'place';

export interface Field {
  name: string;
  type: Scalar | 'object';
  array: boolean;
  kind?: Kind;
  /**
   * The JSON Schema one value of this field must match (its `items` for an array). For an object: the shape of
   * the value the engines build, each of its fields a value of its own schema or null.
   */
  schema: Record<string, unknown>;
  /** An object's fields. */
  fields?: Field[];
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
/** A field name; `@type` and `@id` name an item's type and identifier (schema.org's JSON-LD keys). */
const NAME = /^(?:@type|@id|[A-Za-z_][A-Za-z0-9_\- ]{0,63})$/;
/** Keys that make an object a JSON Schema rather than a nested hint. */
const SCHEMA_KEYS = ['type', 'properties', 'items', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const', 'format'];

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
const isJsonSchema = (o: Record<string, unknown>): boolean => SCHEMA_KEYS.some((k) => k in o);

/** The shape of an object field's value: every field present, each a value of its schema or null. */
export function objectShape(fields: Field[], forModel = false): Record<string, unknown> {
  return { type: 'object', properties: Object.fromEntries(fields.map((f) => [f.name, nullable(f, forModel)])), required: fields.map((f) => f.name), additionalProperties: false };
}

/** A field's value or null (an array field: an array of its values, or null). */
function nullable(f: Field, forModel: boolean): Record<string, unknown> {
  // Servers with strict structured output accept few keywords: they get the types; ajv checks the rest.
  const one = f.type === 'object' ? objectShape(f.fields!, forModel) : forModel ? { type: f.type } : f.schema;
  if (f.array) return { type: ['array', 'null'], items: one };
  if (f.type === 'object') return forModel ? { ...one, type: ['object', 'null'] } : { anyOf: [one, { type: 'null' }] };
  return forModel ? { type: [f.type, 'null'] } : { anyOf: [one, { type: 'null' }] };
}

interface Budget {
  /** Fields left to name, at every level together. */
  left: number;
  issues: ValidationIssue[];
}

/** The fields of one object level (`props`: name → hint or property schema), located at `where`. */
function fieldsOf(props: Record<string, unknown>, where: (string | number)[], depth: number, budget: Budget, hint: boolean): Field[] | undefined {
  const names = Object.keys(props);
  if (names.length === 0) {
    budget.issues.push({ loc: where, msg: 'Name at least one field.', type: 'value_error' });
    return undefined;
  }
  if (names.length > MAX_FIELDS) {
    budget.issues.push({ loc: where, msg: `At most ${MAX_FIELDS} fields in one object.`, type: 'value_error' });
    return undefined;
  }
  budget.left -= names.length;
  if (budget.left < 0) {
    budget.issues.push({ loc: where, msg: `At most ${MAX_SCHEMA_FIELDS} fields in all, nested ones included.`, type: 'value_error' });
    return undefined;
  }
  const fields: Field[] = [];
  for (const name of names) {
    const at = [...where, name];
    if (!NAME.test(name)) {
      budget.issues.push({ loc: at, msg: 'A field name is a letter or _ then up to 63 letters, digits, _, - or spaces (or @type, @id).', type: 'value_error' });
      continue;
    }
    const f = fieldOf(name, props[name], at, depth, budget, hint);
    if (f) fields.push(f);
  }
  return fields.length === names.length ? fields : undefined;
}

/** A hint ("string", "email[]", {…}, [{…}]) or a property schema as a field; an issue recorded otherwise. */
function fieldOf(name: string, spec: unknown, at: (string | number)[], depth: number, budget: Budget, hint: boolean): Field | undefined {
  const fail = (msg: string): undefined => void budget.issues.push({ loc: at, msg, type: 'value_error' });
  if (typeof spec === 'string') {
    const array = spec.endsWith('[]');
    const h = HINTS[(array ? spec.slice(0, -2) : spec).trim().toLowerCase()];
    if (!h) return fail(`unknown type "${spec}" (known: ${Object.keys(HINTS).join(', ')}, each optionally followed by [])`);
    return { name, type: h.type, array, ...(h.kind ? { kind: h.kind } : {}), schema: { type: h.type, ...(h.format ? { format: h.format } : {}) } };
  }
  // A nested hint: {"city": "string"} is an object, [{"price": "number"}] an array of them.
  if (hint && Array.isArray(spec)) {
    if (spec.length !== 1 || !isObject(spec[0]) || isJsonSchema(spec[0])) return fail('a list is written [{…fields…}]: one object of fields and types');
    return objectField(name, spec[0], true, [...at, 0], depth, budget, true);
  }
  if (!isObject(spec)) return fail('expected a type name or a JSON Schema');
  if (hint && !isJsonSchema(spec)) return objectField(name, spec, false, at, depth, budget, true);
  let types = Array.isArray(spec.type) ? spec.type.filter((t) => t !== 'null') : [spec.type ?? (isObject(spec.properties) ? 'object' : undefined)];
  if (types.length !== 1) return fail('expected one type (string, number, integer, boolean, object, or an array of one of these), optionally with null');
  let item = spec;
  let array = false;
  if (types[0] === 'array') {
    if (!isObject(spec.items)) return fail('an array field needs an `items` schema');
    item = spec.items;
    array = true;
    types = Array.isArray(item.type) ? item.type.filter((t) => t !== 'null') : [item.type ?? (isObject(item.properties) ? 'object' : undefined)];
    if (types.length !== 1) return fail('an array’s items need one type (string, number, integer, boolean or object), optionally with null');
  }
  const t = types[0];
  if (t === 'array') return fail('arrays of arrays are not extracted: name an array of objects or of values');
  if (t === 'object') {
    if (!isObject(item.properties)) return fail('an object field needs `properties`, the fields to fill in it');
    // The object's own keywords (required, description…) must compile; its fields are checked one by one below.
    const { properties: _p, ...own } = item;
    if (!compiles(own, at, budget)) return undefined;
    return objectField(name, item.properties, array, array ? [...at, 'items', 'properties'] : [...at, 'properties'], depth, budget, false);
  }
  if (t !== 'string' && t !== 'number' && t !== 'integer' && t !== 'boolean') return fail('expected a type: string, number, integer, boolean or object');
  const format = typeof item.format === 'string' ? item.format : undefined;
  const kind = format ? FORMAT_KINDS[format] : undefined;
  const { type: _type, ...rest } = item;
  const schema = { ...rest, type: t };
  if (!compiles(schema, at, budget)) return undefined;
  return { name, type: t, array, ...(kind ? { kind } : {}), schema };
}

function objectField(name: string, props: Record<string, unknown>, array: boolean, where: (string | number)[], depth: number, budget: Budget, hint: boolean): Field | undefined {
  if (depth >= MAX_SCHEMA_DEPTH) return void budget.issues.push({ loc: where, msg: `Objects nest at most ${MAX_SCHEMA_DEPTH} levels deep.`, type: 'value_error' });
  const fields = fieldsOf(props, where, depth + 1, budget, hint);
  if (!fields) return undefined;
  return { name, type: 'object', array, schema: objectShape(fields), fields };
}

/** A schema ajv can compile (the caller's own keywords: bounds, formats, enums); an issue recorded otherwise. */
function compiles(schema: Record<string, unknown>, at: (string | number)[], budget: Budget): boolean {
  try {
    ajvInstance().compile(schema);
    return true;
  } catch (err) {
    budget.issues.push({ loc: at, msg: `Not a valid JSON Schema: ${(err as Error).message}`, type: 'value_error' });
    return false;
  }
}

/** The fields of a schema, or the issues that make it unusable (422, located under `schema`). */
export function parseSchema(schema: Record<string, unknown>, at: (string | number)[] = ['schema']): { fields: Field[] } | { issues: ValidationIssue[] } {
  const jsonSchema = schema.type === 'object' || isObject(schema.properties);
  const props = jsonSchema ? schema.properties : schema;
  const where = jsonSchema ? [...at, 'properties'] : at;
  if (!isObject(props) || Object.keys(props).length === 0) {
    return { issues: [{ loc: where, msg: 'Name at least one field: a JSON Schema with `properties`, or an object of field names and types.', type: 'value_error' }] };
  }
  const budget: Budget = { left: MAX_SCHEMA_FIELDS, issues: [] };
  const fields = fieldsOf(props, where, 1, budget, !jsonSchema);
  return fields && !budget.issues.length ? { fields } : { issues: budget.issues };
}

/** The JSON Schema of a whole result: every field present, each a value of its schema or null, nothing else. */
export function resultSchema(fields: Field[], forModel = false): Record<string, unknown> {
  return objectShape(fields, forModel);
}

const validators = new WeakMap<Field, ValidateFunction>();
/** True when `value` is a valid value of the field (one item, for an array field). */
export function fits(f: Field, value: unknown): boolean {
  let v = validators.get(f);
  if (!v) validators.set(f, (v = ajvInstance().compile(f.schema)));
  return v(value) as boolean;
}
