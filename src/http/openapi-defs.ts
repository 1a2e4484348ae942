// A tool's input JSON Schema may hold definitions ($defs, such as z.json()'s recursive JSON value) that its
// properties refer to as `#/$defs/<name>`. An OpenAPI operation takes the properties apart into parameters and a
// body, where those references pointed nowhere; so the definitions move to components.schemas, named after the
// tool, and the references follow them.
type Json = Record<string, unknown>;

const LOCAL = '#/$defs/';

/** `schema` without its $defs, each added to `into` as `<tool>.<name>` and every reference to it rewritten. */
export function hoistDefs(schema: Json, tool: string, into: Record<string, Json>): Json {
  const defs = schema.$defs as Record<string, Json> | undefined;
  if (!defs) return schema;
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, k === '$ref' && typeof x === 'string' && x.startsWith(LOCAL) ? `#/components/schemas/${tool}.${x.slice(LOCAL.length)}` : rewrite(x)]),
    );
  };
  for (const [name, def] of Object.entries(defs)) into[`${tool}.${name}`] = rewrite(def) as Json;
  const { $defs: _, ...rest } = schema;
  return rewrite(rest) as Json;
}
