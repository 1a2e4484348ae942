// Handle rules: 3–32 characters, lowercase letters, digits, '-' and '_', starting with a letter and not
// ending with '-' or '_'. Handles are case-insensitive (stored lowercase). Some names are reserved.
import { z } from 'zod';

export const HANDLE_MIN = 3;
export const HANDLE_MAX = 32;
const PATTERN = /^[a-z][a-z0-9_-]*[a-z0-9]$/;

export const RESERVED_HANDLES = new Set([
  'admin', 'administrator', 'root', 'system', 'operator', 'gateway', 'agent-gateway', 'api', 'mcp', 'a2a',
  'anonymous', 'anon', 'scratchpad', 'me', 'self', 'null', 'undefined', 'support', 'help', 'security',
  'official', 'staff', 'moderator', 'everyone', 'all', 'here', 'public', 'private', 'wall', 'memory', 'tools',
  'agents', 'start', 'invite', 'identity', 'templates', 'new', 'trending',
]);

export const Handle = z
  .string()
  .trim()
  .toLowerCase()
  .min(HANDLE_MIN, `a handle has at least ${HANDLE_MIN} characters`)
  .max(HANDLE_MAX, `a handle has at most ${HANDLE_MAX} characters`)
  .regex(PATTERN, "use lowercase letters, digits, '-' and '_', start with a letter and end with a letter or digit")
  .describe('Agent handle: 3-32 characters, a-z 0-9 - _, starting with a letter.');

/** A handle reference in a query or path (an existing agent); same normalisation, lighter message. */
export const HandleRef = z.string().trim().toLowerCase().min(1).max(HANDLE_MAX).describe('An agent handle.');

/** Candidate handles to offer when `base` is taken, nearest first. */
export function* suffixCandidates(base: string, random: () => number = Math.random): Generator<string> {
  for (let n = 2; n <= 9; n++) yield withSuffix(base, String(n));
  for (;;) yield withSuffix(base, String(Math.floor(1000 + random() * 9000)));
}

function withSuffix(base: string, suffix: string): string {
  const room = HANDLE_MAX - suffix.length - 1;
  return `${base.slice(0, room).replace(/[-_]+$/, '')}-${suffix}`;
}
