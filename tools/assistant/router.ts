// The one router behind /ask, A2A text and the gateway-local chat model. A calculator request runs that tool
// through the registry with the caller's own credentials (so paid calculators are paid as over REST: key,
// x402 or credits; without payment the answer says how to pay). Anything else is answered by ranked
// retrieval over the registry, or, for a registered agent asking about what it stored (or about nothing the gateway
// does), from its memory (memory-answer.ts). Deterministic: the same question over the same memory gives the same answer.
import { toGatewayError } from '../../src/errors.js';
import type { ToolContext } from '../../src/registry/types.js';
import { GATEWAY_VERSION } from '../gateway/index.js';
import { catalogOf, rank, type Ranked } from './catalog.js';
import { detectIntent, prepareIntent, type Intent } from './intents.js';
import { phrase, shownArguments } from './phrasing.js';
import { asksMemory, memoryAnswer, recall } from './memory-answer.js';

export type AnswerKind = 'overview' | 'capabilities' | 'calculator' | 'memory' | 'payment_required' | 'invalid_input' | 'error' | 'no_match';

export interface Answer {
  kind: AnswerKind;
  text: string;
  tool?: string;
  arguments?: Record<string, unknown>;
  result?: unknown;
  error?: { code: string; message: string; status: number; detail?: unknown };
  /** The x402 PaymentRequired object when a paid calculator had no payment. */
  payment?: Record<string, unknown>;
  results: Ranked[];
}

/** Below this score (0–100) the best match is too weak to present as the answer. */
export const MIN_SCORE = 25;

const OVERVIEW = /^(help|hi|hello|hey)\b|what (?:can|do|does) (?:you|this|the gateway|it) (?:do|offer|support|provide)|what are you|who are you|what is (?:this|agent gateway|the gateway)|(?:list|show)(?: me)? (?:your |all )?(?:capabilities|tools|features)|\bcapabilities\b/i;

function overview(ctx: ToolContext): Answer {
  const base = ctx.config.baseUrl;
  const { toolsets } = catalogOf(ctx);
  const names = [...toolsets.keys()].sort();
  const count = [...toolsets.values()].reduce((n, ts) => n + ts.length, 0);
  // The overview lists every toolset, whatever the limit: it is the map of the service.
  const results: Ranked[] = names.map((name) => {
    const tools = toolsets.get(name)!;
    return {
      id: `toolset:${name}`,
      name,
      kind: 'toolset',
      toolset: name,
      description: `${tools.length} tool${tools.length === 1 ? '' : 's'}: ${tools.map((t) => t.name).join(', ')}.`,
      url: `${base}/mcp?toolsets=${name}`,
      rest: null,
      mcp: { method: 'tools/call', name: tools[0].name },
      auth: tools.some((t) => t.auth !== 'owner') ? 'public' : 'owner',
      price: null,
      score: 100,
    };
  });
  const text =
    `Agent Gateway ${GATEWAY_VERSION} is a persistent home for stateless agents: ${count} tools in ${names.length} toolsets ` +
    `(${names.join(', ')}). Reach them over MCP (${base}/mcp), REST (${base}/openapi.json), A2A (${base}/a2a) and ` +
    `OpenAI-compatible chat (${base}/v1/chat/completions, model gateway-local). Ask me things like "how do I store a secret?" ` +
    `or "convert 255 to base 2".`;
  return { kind: 'overview', text, results };
}

function howToCall(c: Ranked): string {
  if (c.kind !== 'tool') return `${c.rest} at ${c.url}.`;
  const ways = [c.rest ? `${c.rest}` : null, c.mcp ? `MCP tools/call "${c.name}"` : null].filter(Boolean).join(' or ');
  const auth = c.auth === 'owner' ? ' with your agent secret in Authorization: Bearer' : c.auth === 'optional_owner' ? ' (add your agent secret to act as your handle)' : '';
  const price = c.price ? `; it costs $${c.price.usd} per call (X-API-Key, x402 or credits)` : '';
  return `Call it with ${ways}${auth}${price}.`;
}

function capabilities(hits: Ranked[]): Answer {
  const [top, ...others] = hits;
  const related = others.filter((o) => o.score >= MIN_SCORE).slice(0, 4);
  const text =
    `Use ${top.name}${top.title ? ` (${top.title})` : ''}: ${top.description} ${howToCall(top)}` +
    (related.length ? ` Related: ${related.map((o) => o.name).join(', ')}.` : '');
  return { kind: 'capabilities', text, results: hits };
}

function noMatch(ctx: ToolContext, hits: Ranked[]): Answer {
  const text =
    'I could not match that to anything this gateway does. Ask "what can you do?" for an overview, or name a task such as ' +
    `"how do I remember something between sessions?"; every tool is listed by MCP tools/list at ${ctx.config.baseUrl}/mcp?toolsets=all, and tools_find finds one by need.`;
  return { kind: 'no_match', text, results: hits };
}

function paymentText(ctx: ToolContext, intent: Intent, shown: Record<string, unknown>, usd: string | undefined): string {
  const base = ctx.config.baseUrl;
  return (
    `${intent.tool} is a paid calculator${usd ? ` ($${usd} per call)` : ''}, so it needs payment to run: send X-API-Key (a free key from ` +
    `POST ${base}/keys/issue gives 10,000 calls a month), pay per call with x402 (PAYMENT-SIGNATURE; requirements at ` +
    `${base}/.well-known/x402), or ask as a registered agent holding credits. The call it would make: POST ${base}/tools/${intent.tool} ` +
    `${JSON.stringify(shown)}.`
  );
}

async function runCalculator(ctx: ToolContext, intent: Intent): Promise<Answer> {
  const cap = catalogOf(ctx).byId.get(intent.tool);
  const results: Ranked[] = cap ? [{ ...cap, score: 100 }] : [];
  try {
    const result = await ctx.call(intent.tool, intent.arguments);
    const shown = shownArguments(intent.tool, intent.arguments, result);
    return { kind: 'calculator', text: phrase(intent.tool, intent.arguments, result), tool: intent.tool, arguments: shown, result, results };
  } catch (err) {
    const ge = toGatewayError(err);
    const shown = shownArguments(intent.tool, intent.arguments);
    const error = { code: ge.code, message: ge.message, status: ge.status, ...(ge.detail ? { detail: ge.detail } : {}) };
    if (ge.code === 'payment_required') {
      return { kind: 'payment_required', text: paymentText(ctx, intent, shown, cap?.price?.usd), tool: intent.tool, arguments: shown, error, payment: ge.payment, results };
    }
    const kind: AnswerKind = ge.code === 'validation_error' ? 'invalid_input' : 'error';
    const text =
      kind === 'invalid_input'
        ? `That reads as a ${intent.tool} request, but the input is not valid: ${ge.message}`
        : `${intent.tool} could not answer: ${ge.message}`;
    return { kind, text, tool: intent.tool, arguments: shown, error, results };
  }
}

/** Answers that depend only on the words (not on the caller): kept per gateway, the oldest dropped first. */
const CACHE_SIZE = 1000;
const cached = new WeakMap<object, Map<string, Answer>>();

function remember(ctx: ToolContext, key: string, make: () => Answer): Answer {
  let cache = cached.get(ctx.services);
  if (!cache) cached.set(ctx.services, (cache = new Map()));
  let a = cache.get(key);
  if (!a) {
    a = make();
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, a);
  }
  return a;
}

/** Answers one question; `prev` are the earlier questions of the same conversation, oldest first. */
export async function answer(ctx: ToolContext, query: string, prev: string[] = [], limit = 10): Promise<Answer> {
  const q = query.trim();
  if (!q || OVERVIEW.test(q)) return remember(ctx, '\u0000overview', () => overview(ctx));
  await prepareIntent(q);
  const intent = detectIntent(q);
  // A calculator runs every time: it is paid with the caller's credentials.
  if (intent && catalogOf(ctx).byId.has(intent.tool)) return runCalculator(ctx, intent);
  const a = remember(ctx, `${limit}\u0001${prev.join('\u0002')}\u0001${q}`, () => {
    const hits = rank(ctx, q, prev, limit);
    return hits.length && hits[0].score >= MIN_SCORE ? capabilities(hits) : noMatch(ctx, hits);
  });
  // A registered agent asking about what it stored, or about nothing the gateway does, is answered from its memory.
  if (ctx.caller.agent && (asksMemory(q) || a.kind === 'no_match')) {
    const found = await recall(ctx, q);
    if (found.length) {
      const m = memoryAnswer(ctx, found);
      return { kind: 'memory', text: m.text, results: [...m.results, ...a.results].slice(0, Math.max(limit, m.results.length)) };
    }
  }
  return a;
}
