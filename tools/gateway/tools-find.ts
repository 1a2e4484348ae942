// tools_find: the step between the small default tool list and the rest. It finds tools by what the agent needs,
// in its own words (BM25 over each tool's name, title, description and toolset, with stemming), answers their full
// definitions so the model can call one at once, and on a lasting connection (a 2025-era session, stdio) enables
// their toolsets, which the MCP server then announces with notifications/tools/list_changed.
import type MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Tool } from '../../src/registry/types.js';

const STOP = new Set('a an and are as at be by can do for from how i in is it me my of on or the to want with need tool tools use'.split(' '));
const processTerm = (term: string): string | null => (STOP.has(term.toLowerCase()) ? null : stemmer(term.toLowerCase()));

interface Doc {
  id: string;
  words: string;
  description: string;
  toolset: string;
}

/** Indexes per gateway (its services), built on the first search: the tool list is fixed once the gateway is built. */
const indexes = new WeakMap<object, MiniSearch<Doc>>();

/** MiniSearch is loaded on the first search, not at start-up (test/startup-imports.test.ts). */
async function indexOf(owner: object, tools: readonly Tool[]): Promise<MiniSearch<Doc>> {
  let index = indexes.get(owner);
  if (!index) {
    const { default: MiniSearch } = await import('minisearch');
    index = new MiniSearch<Doc>({ fields: ['words', 'description', 'toolset'], idField: 'id', processTerm, searchOptions: { boost: { words: 3, toolset: 2 }, prefix: true, fuzzy: 0.2 } });
    index.addAll(tools.map((t) => ({ id: t.name, words: `${t.name.replace(/_/g, ' ')} ${t.title ?? ''}`, description: t.description, toolset: t.toolset })));
    indexes.set(owner, index);
  }
  return index;
}

export const toolsFind = defineTool({
  name: 'tools_find',
  title: 'Find more tools',
  toolset: 'gateway',
  description:
    'Finds gateway tools by what you need, in your own words ("share a memory with another agent", "post on the wall"), ' +
    'or a whole toolset by name. Use it when no listed tool fits: the default list is short, and about 150 more tools ' +
    '(memory, wall, jobs, calculators, vault, artifacts, commercial services…) are one call away. Answers each ' +
    "tool's definition, which you can call at once; on a lasting connection their toolsets join this connection's tool list.",
  input: z.object({
    need: z.string().trim().min(1).max(500).optional().describe('What you want to do, in plain words.'),
    toolset: z.string().trim().min(1).max(64).optional().describe('A toolset to enable whole (gateway_info lists them).'),
    enable: z.boolean().default(true).describe("Add the found tools' toolsets to this connection's tool list (a lasting connection only)."),
    limit: z.number().int().min(1).max(20).default(6).describe('At most this many tools.'),
  }),
  auth: 'public',
  annotations: { readOnlyHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    if (!input.need && !input.toolset) throw new GatewayError('validation_error', 'Give `need` (what you want to do) or `toolset` (a toolset name).');
    const tools = ctx.services.listTools().filter((t) => t.expose.mcp);
    let found: Tool[];
    if (input.toolset) {
      found = tools.filter((t) => t.toolset === input.toolset);
      if (!found.length) {
        const names = [...new Set(tools.map((t) => t.toolset))].sort();
        throw new GatewayError('validation_error', `No toolset named ${input.toolset}. Toolsets: ${names.join(', ')}.`);
      }
    } else {
      const byName = new Map(tools.map((t) => [t.name, t]));
      found = (await indexOf(ctx.services, tools))
        .search(input.need!)
        .slice(0, input.limit)
        .map((hit) => byName.get(hit.id)!);
    }
    const session = ctx.session;
    const toolsets = [...new Set(found.map((t) => t.toolset))];
    const added = input.enable && session ? toolsets.filter((t) => !session.enabledToolsets?.includes(t)) : [];
    if (session && added.length) session.enabledToolsets = [...(session.enabledToolsets ?? []), ...added];
    return {
      tools: found.map((t) => ({ name: t.name, title: t.title, toolset: t.toolset, description: t.description, input_schema: t.inputJsonSchema, ...(t.price ? { price_usd: t.price.usd } : {}) })),
      toolsets,
      enabled: added,
      listed: Boolean(session && input.enable && found.length),
      note: found.length
        ? session
          ? 'Call any of these tools now. Their toolsets are in this connection\'s tools/list (announced with notifications/tools/list_changed).'
          : 'Call any of these tools now with tools/call. This connection has no session, so its tools/list stays as it is: connect with ?toolsets=<names> (or ?toolsets=all) to list them.'
        : 'No tool matched. Try other words, or gateway_info for every toolset.',
    };
  },
});
