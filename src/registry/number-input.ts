// Numbers in tool input: a JSON number, or the same digits as text (query strings and path segments are text,
// and some agents quote ids). Anything else is refused, not coerced: with z.coerce, `reply_to: true` became a
// reply to post 1, `[7]` became 7 and `null` became 0. The JSON Schema stays the inner number's.
import { z } from 'zod';

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

const fromText = (v: unknown): unknown => (typeof v === 'string' && NUMERIC.test(v) ? Number(v) : v);

/** `schema` (a z.number() with its checks) that also takes its value written as decimal digits. */
export const numberInput = <T extends z.ZodType<number>>(schema: T) => z.preprocess(fromText, schema);
