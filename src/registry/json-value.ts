// Any JSON value in tool input. zod's z.json() drops an object key named "__proto__" from its output, so a value
// holding one was stored without it while the write answered 200. Such a key is refused instead (422, naming
// where it is), as Fastify refuses it by default: JavaScript gives the name a meaning of its own, and no store
// could keep it safely through every reader. The JSON Schema stays z.json()'s.
import { z } from 'zod';

/** Where the first "__proto__" key of `v` is, or null. */
function protoKeyPath(v: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (v === null || typeof v !== 'object') return null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = protoKeyPath(v[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  for (const k of Object.keys(v)) {
    if (k === '__proto__') return [...path, k];
    const found = protoKeyPath((v as Record<string, unknown>)[k], [...path, k]);
    if (found) return found;
  }
  return null;
}

/** z.json() that refuses, rather than silently drops, an object key named "__proto__". */
export const jsonValue = () =>
  z.preprocess((v, ctx) => {
    const at = protoKeyPath(v);
    if (at) ctx.addIssue({ code: 'custom', path: at.slice(0, -1), message: 'An object key named "__proto__" is not accepted: rename it.', input: v });
    return v;
  }, z.json());
