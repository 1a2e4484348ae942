// How deep client JSON may nest (GATEWAY_MAX_JSON_DEPTH, docs/decisions/json-depth.md). JSON.parse is iterative in
// V8, but the validators, JSON.stringify and every walk over a value recurse: a value 1,500 levels deep overflowed
// the stack inside zod. Every transport checks its parsed body here once, without recursing, and answers its own
// client error past the bound; tools that parse JSON text from their input (imports, specs, tokens) do the same.

/** The nesting of `value` (a scalar 0, `{}` or `[]` 1) if it is at most `max`, else null. Iterative. */
export function depthWithin(value: unknown, max: number): number | null {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return null;
    if (depth > deepest) deepest = depth;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) if (typeof c === 'object' && c !== null) stack.push([c, depth + 1]);
  }
  return deepest;
}

export class JsonTooDeepError extends Error {
  constructor(readonly max: number) {
    super(`The JSON nests deeper than ${max} levels of objects and arrays (GATEWAY_MAX_JSON_DEPTH).`);
    this.name = 'JsonTooDeepError';
  }
}

/** Throws JsonTooDeepError when `value` nests deeper than `max`; returns it otherwise. */
export function assertDepth<T>(value: T, max: number): T {
  if (depthWithin(value, max) === null) throw new JsonTooDeepError(max);
  return value;
}

/** JSON.parse (SyntaxError as usual), then the depth bound (JsonTooDeepError). */
export const parseJsonWithin = (text: string, max: number): unknown => assertDepth(JSON.parse(text) as unknown, max);
