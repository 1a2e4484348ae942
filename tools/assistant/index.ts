// /ask: a plain-language question answered in the NLWeb response style (results with name, url, score,
// description), plus the answer itself. An empty question gets the overview of the service.
import { poolBytes } from '../../src/random.js';
import { z } from 'zod';
import { maskCardNumbers } from '../../src/llm/redact.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Tool } from '../../src/registry/types.js';
import type { Answer } from './router.js';

// The router (intents, the ranked catalogue, phrasing) loads with the first question, not at start-up. The
// promise is kept: import() of a module already loaded still costs about 3 µs a call.
let loading: Promise<typeof import('./router.js')> | undefined;
const router = () => (loading ??= import('./router.js'));

const Prev = z
  .union([z.string().max(20_000), z.array(z.string().max(20_000)).max(20)])
  .optional()
  .describe('Earlier questions of the conversation, oldest first: an array, or one comma-separated string (NLWeb prev).');

export const AskInput = z.object({
  query: z.string().max(20_000).default('').describe('The question; empty for an overview of the service.'),
  prev: Prev,
  mode: z.enum(['list', 'summarize', 'generate']).default('list').describe('list: ranked results; summarize/generate: also a summary.'),
  limit: z.number().int().min(1).max(50).default(10).describe('Results to return (1–50, default 10).'),
  query_id: z.string().max(100).optional().describe('Echoed back; one is made up when absent.'),
});

export const prevList = (prev: string | string[] | undefined): string[] =>
  prev === undefined ? [] : Array.isArray(prev) ? prev : prev.split(',').map((s) => s.trim()).filter(Boolean);

function summarize(a: Answer): string {
  const top = a.results.slice(0, 3).map((r) => r.name);
  return top.length ? `${a.text} Top matches: ${top.join(', ')}.` : a.text;
}

export const ask = defineTool({
  name: 'ask',
  title: 'Ask the gateway',
  toolset: 'assistant',
  description:
    'Answers a plain-language question about this gateway ("how do I store a secret?") with the matching tools and how to call ' +
    'them (REST, MCP, price), or runs a calculator when asked for a result ("convert 255 to base 2", "is this IBAN valid: …", ' +
    '"10 business days after 2026-12-20 in DE"; paid calculators need a key, x402 payment or credits as usual). Asked by a ' +
    'registered agent about what it stored ("what did I note about the Lisbon trip?"), it answers from that agent\'s memory. ' +
    'NLWeb-style response: results with name, url, score (0–100), description.',
  input: AskInput,
  auth: 'public',
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: async (input, ctx) => {
    const a = await (await router()).answer(ctx, input.query, prevList(input.prev), input.limit);
    return {
      query_id: input.query_id ?? `ask_${poolBytes(9).toString('base64url')}`,
      query: maskCardNumbers(input.query),
      mode: input.mode,
      answer: {
        kind: a.kind,
        text: a.text,
        ...(a.tool ? { tool: a.tool, arguments: a.arguments } : {}),
        ...(a.result !== undefined ? { result: a.result } : {}),
        ...(a.error ? { error: a.error } : {}),
        ...(a.payment ? { payment: a.payment } : {}),
      },
      ...(input.mode !== 'list' ? { summary: summarize(a) } : {}),
      results: a.results.map((r) => ({
        name: r.name,
        url: r.url,
        score: r.score,
        description: r.description,
        site: ctx.config.baseUrl,
        kind: r.kind,
        ...(r.toolset ? { toolset: r.toolset } : {}),
        call: { rest: r.rest, mcp: r.mcp },
        auth: r.auth,
        price: r.price,
      })),
    };
  },
});

export const assistantTools: Tool[] = [ask];
