// The `memory` verb (spec: MCP-only verbs): one tool over the memory toolset for hosts that keep few tools in
// context. Each action is a ctx.call to the memory tool it names, so validation, auth, limits and errors are
// exactly that tool's; the verb itself only checks that the action and its required fields are there.
import { z } from 'zod';
import { jsonValue } from '../../src/registry/json-value.js';
import { validationError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';

export const MEMORY_ACTIONS = ['get', 'put', 'search', 'list', 'delete', 'context'] as const;
type Action = (typeof MEMORY_ACTIONS)[number];

const TOOL: Record<Exclude<Action, 'context'>, string> = { get: 'memory_get', put: 'memory_put', search: 'memory_search', list: 'memory_list', delete: 'memory_delete' };

/** Fields each action cannot do without (the underlying tool checks their values). */
const REQUIRED: Record<Action, string[]> = { get: ['namespace', 'key'], put: ['namespace', 'key', 'value'], search: [], list: ['namespace'], delete: ['namespace', 'key'], context: [] };

// A flat object rather than a discriminated union: MCP wants an object inputSchema, and hosts fill flat forms best.
const MemoryVerbInput = z.object({
  action: z.string().describe(`One of: ${MEMORY_ACTIONS.join(', ')}.`),
  namespace: z.string().optional().describe('Namespace (get, put, list, delete).'),
  key: z.string().optional().describe('Key (get, put, delete).'),
  value: jsonValue().optional().describe('Any JSON value (put).'),
  handle: z.string().optional().describe("Owner handle, to reach another agent's shared namespace."),
  visibility: z.string().optional().describe('private or public (put).'),
  tags: z.array(z.string()).optional().describe('Tags (put).'),
  pinned: z.boolean().optional().describe('Pin the entry (put).'),
  ttl_seconds: z.number().optional().describe('Expire after this many seconds (put).'),
  if_version: z.number().optional().describe('Compare-and-set version, 0 = create only (put).'),
  q: z.string().optional().describe('What to find, in plain language or keywords (search; context: also the entries most relevant to it).'),
  ns: z.string().optional().describe('Only this namespace (search).'),
  limit: z.number().optional().describe('How many (search, list, context).'),
  cursor: z.string().optional().describe('Page cursor (list).'),
});

const MemoryVerbOutput = z.object({ action: z.enum(MEMORY_ACTIONS), result: z.record(z.string(), z.unknown()) });

function checkAction(input: Record<string, unknown>): Action {
  const action = input.action as string;
  if (!(MEMORY_ACTIONS as readonly string[]).includes(action)) {
    throw validationError([{ loc: ['action'], msg: `Unknown action "${action}"; the actions are ${MEMORY_ACTIONS.join(', ')}.`, type: 'enum' }]);
  }
  const missing = REQUIRED[action as Action].filter((f) => input[f] === undefined);
  if (missing.length) throw validationError(missing.map((f) => ({ loc: [f], msg: `Field required for action "${action}".`, type: 'missing' })));
  return action as Action;
}

/** The context card (memory_context), plus the entries most relevant to `q` when one is given. */
async function context(ctx: ToolContext, args: Record<string, unknown>) {
  const { q, limit, ...rest } = args;
  const extra = Object.keys(rest).filter((k) => k !== 'handle');
  if (extra.length) throw validationError(extra.map((f) => ({ loc: [f], msg: 'Not a field of action "context".', type: 'extra_forbidden' })));
  // memory_context is owner-only: an anonymous caller gets its 401, another handle its 403.
  return (await ctx.call('memory_context', { handle: rest.handle ?? ctx.caller.agent?.handle, ...(q === undefined ? {} : { q }), ...(limit === undefined ? {} : { limit }) })) as Record<string, unknown>;
}

export const memoryVerb = defineTool({
  name: 'memory',
  title: 'Memory (one verb)',
  toolset: 'verbs',
  description:
    `Your memory in one tool: action ${MEMORY_ACTIONS.join(' | ')}. get/delete need namespace and key; put also value ` +
    '(and takes visibility, tags, pinned, ttl_seconds, if_version); list needs namespace; search takes q (a plain question ' +
    'works) and ns; context returns your context card (pinned, recent, open items), with the entries most relevant to q ' +
    'when given. Same rules ' +
    'and limits as the memory_* tools. The result is {action, result}.',
  input: MemoryVerbInput,
  output: MemoryVerbOutput,
  auth: 'optional_owner',
  acceptsLogin: true,
  expose: { mcpOnly: true },
  annotations: { destructiveHint: true, idempotentHint: false },
  handler: async (input, ctx) => {
    const action = checkAction(input);
    const { action: _a, ...args } = input;
    if (action === 'context') return { action, result: await context(ctx, args) };
    return { action, result: (await ctx.call(TOOL[action], args)) as Record<string, unknown> };
  },
});
