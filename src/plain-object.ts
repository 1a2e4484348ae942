// The one test for "a JSON object" (not null, not an array), for code that inspects inputs of unknown shape.
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
