// POST /v1/chat/completions at {api_url} with a revenue key: the gateway's chat, metered per 1,000 tokens to the
// account. Each call is an order made within its request: the most it can cost (its prompt and max_tokens) is
// held first, the tokens the answer used are captured when it is complete, and a failed call costs nothing.
// Streams are captured when the last event has passed, from the usage the upstream reports (asked for).
import { meteredPrice } from '../../src/commerce/prices.js';
import { GatewayError } from '../../src/errors.js';
import { proxyChat, proxyChatStream } from '../../src/llm/chat-proxy.js';
import type { ChatStream } from '../../src/llm/chat-stream.js';
import { countTokens, LOCAL_MODEL } from '../../src/llm/local-engine.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext, WorkerContext } from '../../src/registry/types.js';
import type * as store from '../../src/store/orders.js';
import { localChat } from '../chat/index.js';
import { ChatInput, textOf, type ChatRequest } from '../chat/input.js';
import { deliverNow, failNow, startNow } from './inline.js';
import { METERED_X402, placeOrder } from './place.js';
import type { ServiceDef, TokenUsage } from './services.js';

/** The longest answer a call without max_tokens may get: it bounds what is held. */
export const DEFAULT_MAX_TOKENS = 4096;
/** Prompt tokens are estimated before the call (the upstream counts its own way): this much headroom. */
const PROMPT_HEADROOM = 1.5;
const SAFETY_NET_MS = 10 * 60_000;

const CARD = 'Metered chat costs cents per call, below the card minimum: pay with the prepaid balance.';

function usageOf(v: unknown): TokenUsage | undefined {
  const u = (v as { usage?: Partial<TokenUsage> } | null)?.usage;
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return undefined;
  return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens };
}

/** The answer of the model the caller named: the gateway's own, or the upstream's. */
async function complete(input: ChatRequest, ctx: ToolContext): Promise<unknown> {
  // Metered, the gateway's own model reports its usage too (the stream's last chunk).
  if (input.model === LOCAL_MODEL) return localChat(input, ctx, true);
  const llm = ctx.config.llm;
  if (!llm) throw new GatewayError('model_not_configured', `The model \`${input.model}\` is not served here: no upstream is configured (LLM_BASE_URL); ${LOCAL_MODEL} is. Nothing was charged.`);
  // The usage is asked for so that a stream can be metered; a client that did not ask still gets the chunk.
  const body = input.stream ? { ...input, stream_options: { ...(input.stream_options ?? {}), include_usage: true } } : input;
  return input.stream ? proxyChatStream(llm, body, ctx.signal) : proxyChat(llm, body, ctx.signal);
}

/** Relays a stream, keeping its usage; when it ends the order is delivered (or failed when it broke). */
function metered(stream: ChatStream, ctx: WorkerContext, o: store.OrderRow, model: string, charge: (u: TokenUsage) => number): ChatStream {
  return {
    kind: 'chat_stream',
    events: (async function* () {
      let usage: TokenUsage | undefined;
      let chars = 0;
      try {
        for await (const data of stream.events) {
          chars += data.length;
          try {
            usage = usageOf(JSON.parse(data)) ?? usage;
          } catch {
            // Not JSON: relayed as it is.
          }
          yield data;
        }
      } catch (err) {
        await failNow(ctx, o, 'The stream broke before its end.');
        throw err;
      }
      // An upstream that reports no usage is charged an estimate (four characters a token), never nothing.
      const u = usage ?? { prompt_tokens: 0, completion_tokens: Math.ceil(chars / 4), total_tokens: Math.ceil(chars / 4) };
      await deliverNow(ctx, o, { result: { model, usage: u }, usage: u, charge: charge(u) });
    })(),
  };
}

export const chatMetered = defineTool({
  name: 'chat_metered',
  title: 'Chat completion, metered to a commercial account',
  toolset: 'commercial',
  description:
    'An OpenAI chat completion charged per 1,000 tokens to the revenue key’s prepaid balance: the most it can cost (prompt and max_tokens, ' +
    `${DEFAULT_MAX_TOKENS} when unset) is held, and only the tokens used are charged.`,
  input: ChatInput,
  auth: 'account',
  // Served at POST /v1/chat/completions on the commercial listener only: its streamed form is not a JSON result.
  expose: { mcp: false },
  handler: async (input, ctx) => {
    const rate = ctx.config.commercial.prices['chat.per_1k_tokens'];
    const maxTokens = input.max_completion_tokens ?? input.max_tokens ?? DEFAULT_MAX_TOKENS;
    const prompt = Math.ceil(input.messages.reduce((n, m) => n + countTokens(textOf(m)), 0) * PROMPT_HEADROOM) + 16 * input.messages.length;
    const amount = Math.max(1, meteredPrice(rate, prompt + maxTokens * (input.n ?? 1)));
    const request = input.max_completion_tokens || input.max_tokens ? input : { ...input, max_tokens: maxTokens };
    const { order } = await placeOrder(
      ctx,
      { service: 'chat', priceId: 'chat.per_1k_tokens', amount, input: { model: input.model, messages: input.messages.length }, capturableForMs: SAFETY_NET_MS, dueInMs: SAFETY_NET_MS, refuses: { x402: METERED_X402, card: CARD } },
      undefined,
    );
    const wctx = ctx as WorkerContext;
    const charge = (u: TokenUsage) => Math.min(order.hold_amount, meteredPrice(rate, u.total_tokens));
    if (!(await startNow(wctx, order))) throw new GatewayError('conflict', 'The call was canceled.');
    let out: unknown;
    try {
      out = await complete(request, ctx);
    } catch (err) {
      await failNow(wctx, order, (err as Error).message || 'The completion failed.');
      throw err;
    }
    ctx.meta.headers['X-Order-Id'] = order.id;
    if ((out as ChatStream).kind === 'chat_stream') return metered(out as ChatStream, wctx, order, input.model, charge);
    const u = usageOf(out) ?? { prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt };
    const done = await deliverNow(wctx, order, { result: { model: input.model, usage: u }, usage: u, charge: charge(u) });
    ctx.meta.headers['X-Charged-Micro-USD'] = String(done.charged ?? 0);
    return out;
  },
});

/** A metered chat whose request ended without an answer (the process stopped): its safety net fails it. */
export const chatService: ServiceDef = {
  service: 'chat',
  produce: async () => {
    throw new GatewayError('conflict', 'The chat call ended before its answer (the gateway stopped); nothing was charged.');
  },
};
