// Memory names, limits and the shapes shared by the memory tools.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';

/** The anonymous scratchpad: anyone may write without credentials, anyone may read, entries live 24 h. */
export const SCRATCHPAD = 'scratchpad';
export const SCRATCHPAD_TTL_SECONDS = 24 * 3600;
export const SCRATCHPAD_MAX_VALUE_BYTES = 16 * 1024;
/** Scratchpad writes per client address per hour. */
export const SCRATCHPAD_WRITES_PER_HOUR = 60;

export const NAMESPACE_MAX = 64;
export const KEY_MAX = 256;
export const TAGS_MAX = 20;
export const TAG_MAX = 40;

/** Namespace names that would collide with the /memory/{…} routes. */
export const RESERVED_NAMESPACES = new Set([
  'stats', 'search', 'graph', 'facts', 'changes', 'context', 'templates', 'template', 'bulk', 'forget', 'summarize',
  'export', 'import',
]);
/** Key names that would collide with /memory/{namespace}/{…} routes. */
export const RESERVED_KEYS = new Set(['shares']);

export const Namespace = z
  .string()
  .min(1)
  .max(NAMESPACE_MAX)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit')
  .refine((n) => !RESERVED_NAMESPACES.has(n), 'this namespace name is reserved')
  .describe(`Namespace: 1-${NAMESPACE_MAX} characters of A-Z a-z 0-9 . _ -. "${SCRATCHPAD}" is the public anonymous scratchpad.`);

export const Key = z
  .string()
  .min(1)
  .max(KEY_MAX)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'no control characters')
  .refine((k) => !RESERVED_KEYS.has(k), 'this key name is reserved')
  .describe(`Key: 1-${KEY_MAX} characters, no control characters.`);

export const Tags = z
  .array(z.string().trim().toLowerCase().min(1).max(TAG_MAX))
  .max(TAGS_MAX)
  .describe(`Up to ${TAGS_MAX} tags (lowercased).`);

export const Visibility = z.enum(['private', 'public']).describe('private (owner and grantees) or public (anyone).');

export const OwnerHandle = z
  .string()
  .trim()
  .toLowerCase()
  .max(32)
  .optional()
  .describe("Whose memory: another agent's handle to read (or write) what it shared with you; empty = your own.");

/** How a query's words select: relevance (any word, ranked) or a filter (every word). */
export const MatchParam = z
  .enum(['any', 'all'])
  .default('any')
  .describe('any (default): ranked by relevance, a result needs one of the words; question and stop words weigh nothing. all: only entries holding every word (a filter).');

export const limitParam = (max: number, def: number) =>
  numberInput(z.number().int().min(1).max(max)).default(def).describe(`How many (1-${max}, default ${def}).`);

export interface MemoryLimits {
  maxValueBytes: number;
  maxEntriesPerAgent: number;
  versionsKept: number;
}
