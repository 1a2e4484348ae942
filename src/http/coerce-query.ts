// Query strings are text; the tool's JSON Schema says what each field should be. Numbers, booleans and
// single-valued arrays are converted before validation, so `?limit=5&exact=true` reads as 5 and true.
type Schema = { type?: string | string[]; anyOf?: Schema[]; items?: Schema; properties?: Record<string, Schema> };

const typesOf = (s: Schema | undefined): string[] => {
  if (!s) return [];
  if (s.anyOf) return s.anyOf.flatMap(typesOf);
  return Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
};

function coerce(value: unknown, s: Schema | undefined): unknown {
  const types = typesOf(s);
  if (types.includes('array')) {
    const items = Array.isArray(value) ? value : [value];
    return items.map((v) => coerce(v, s?.items ?? s?.anyOf?.find((x) => x.type === 'array')?.items));
  }
  if (typeof value !== 'string' || types.includes('string')) return value;
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)) return Number(value);
  if (types.includes('boolean')) {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  return value;
}

export function coerceQuery(query: Record<string, unknown>, schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema as Schema).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const k in query) out[k] = coerce(query[k], props[k]);
  return out;
}
