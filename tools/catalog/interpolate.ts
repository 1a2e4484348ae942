// Fills a template step's input from the run's scope. "{{a.b}}" alone keeps the value's type (a number,
// an object); inside longer text it is written as text. A reference to nothing leaves the field out.
const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;
const PART = /\{\{\s*([\w.-]+)\s*\}\}/g;

export function lookup(scope: unknown, path: string): unknown {
  let v: unknown = scope;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

const asText = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function interpolate(value: unknown, scope: unknown): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(scope, whole[1]);
    return value.replace(PART, (_m, p: string) => asText(lookup(scope, p)));
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, scope)).filter((v) => v !== undefined);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const filled = interpolate(v, scope);
      if (filled !== undefined) out[k] = filled;
    }
    return out;
  }
  return value;
}
