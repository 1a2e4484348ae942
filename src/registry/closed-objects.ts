// Unknown input fields are refused, not silently dropped: a client that misspells a field (or uses a name the
// tool does not take) must learn it from a 422 instead of a success that ignored it. zod's plain objects strip
// unknown keys, so the refusal is decided here from the tool's input JSON Schema: every object with declared
// properties is closed (`additionalProperties: false`, which is also what clients read), while objects that
// take any keys (records, loose objects: memory values, JSON schemas, tool arguments) stay open.
import type { ValidationIssue } from '../errors.js';
import { isPlainObject as isObject } from '../plain-object.js';

type Schema = Record<string, unknown>;

const subschemas = (v: unknown): Schema[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** Marks every object schema with declared properties and no rule for other keys as closed; returns `schema`. */
export function closeObjects(schema: Schema): Schema {
  if (schema.type === 'object' && isObject(schema.properties) && !('additionalProperties' in schema) && !('patternProperties' in schema)) {
    schema.additionalProperties = false;
  }
  if (isObject(schema.properties)) for (const p of Object.values(schema.properties)) if (isObject(p)) closeObjects(p);
  if (isObject(schema.items)) closeObjects(schema.items);
  for (const s of subschemas(schema.prefixItems)) closeObjects(s);
  // Each branch of a union is matched on its own, so each may be closed; allOf parts may not (each would
  // refuse the others' fields).
  for (const s of [...subschemas(schema.anyOf), ...subschemas(schema.oneOf)]) closeObjects(s);
  return schema;
}

/** What a schema node allows, worked out once per node (every call of a tool walks the same schema). */
interface Shape {
  /** The object branches a value may match: the node itself, or the branches of its union. */
  options: Schema[];
  /** Top-level field names the branches declare; null when any key is taken. */
  fields: Set<string> | null;
}

const shapes = new WeakMap<Schema, Shape>();

function shapeOf(schema: Schema): Shape {
  let shape = shapes.get(schema);
  if (!shape) {
    const union = [...subschemas(schema.anyOf), ...subschemas(schema.oneOf)].filter((s) => s.type === 'object');
    const options = union.length > 0 ? union : schema.type === 'object' ? [schema] : [];
    const open = options.length === 0 || options.some((b) => b.additionalProperties !== false);
    const fields = open ? null : new Set(options.flatMap((b) => (isObject(b.properties) ? Object.keys(b.properties) : [])));
    shapes.set(schema, (shape = { options, fields }));
  }
  return shape;
}

const EXTRA = 'Extra inputs are not permitted';

/**
 * Fields of `value` that `schema` does not declare, anywhere a closed object is expected, as FastAPI-style
 * issues (`extra_forbidden`, the location of the field). In a union a field any branch declares is allowed.
 */
export function unknownFields(value: unknown, schema: Schema, path: (string | number)[] = []): ValidationIssue[] {
  if (Array.isArray(value)) {
    if (!isObject(schema.items)) return [];
    const items = schema.items;
    return value.flatMap((v, i) => unknownFields(v, items, [...path, i]));
  }
  if (!isObject(value)) return [];
  const { options, fields } = shapeOf(schema);
  if (!fields) return [];
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(value)) {
    if (!fields.has(key)) {
      issues.push({ loc: [...path, key], msg: EXTRA, type: 'extra_forbidden' });
      continue;
    }
    const declaring = options.length === 1 ? options : options.filter((b) => isObject(b.properties) && Object.hasOwn(b.properties, key));
    // Below a field, only an unambiguous declaration says what is allowed.
    if (declaring.length === 1) issues.push(...unknownFields(value[key], (declaring[0].properties as Record<string, Schema>)[key], [...path, key]));
  }
  return issues;
}

/** The top-level fields a tool input declares, or null when it takes any field. */
export const declaredFields = (schema: Schema): ReadonlySet<string> | null => shapeOf(schema).fields;
