// The OpenAI-compatible free chat tier. gateway-local answers with the assistant's router (questions about
// the gateway, calculators through the registry with the caller's credentials); any other model id goes to
// the configured upstream, streamed or not; with no upstream an unknown model is 404 model_not_found.
import { poolBytes } from '../../src/random.js';
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { proxyChat, proxyChatStream } from '../../src/llm/chat-proxy.js';
import { countTokens, LOCAL_MODEL, localCompletion, localCompletionStream } from '../../src/llm/local-engine.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Tool, ToolContext } from '../../src/registry/types.js';
import { ChatInput, textOf, type ChatRequest } from './input.js';
import { modelList } from './models.js';
import { takeChatAllowance } from './rate.js';

/** Earlier user turns passed to the router as context. */
const PREV_TURNS = 5;

/** The gateway's own model: the assistant's router, as a completion (streamed or not); `includeUsage` adds the usage chunk. */
export async function localChat(input: ChatRequest, ctx: ToolContext, includeUsage = input.stream_options?.include_usage === true) {
  const users = input.messages.filter((m) => m.role === 'user').map(textOf);
  // The assistant's router loads with the first question (tools/assistant/index.ts), not at start-up.
  const { answer } = await import('../assistant/router.js');
  const a = await answer(ctx, users[users.length - 1] ?? '', users.slice(0, -1).slice(-PREV_TURNS), 5);
  const content =
    input.response_format?.type === 'json_object' || input.response_format?.type === 'json_schema'
      ? JSON.stringify({ kind: a.kind, text: a.text, tool: a.tool ?? null, arguments: a.arguments ?? null, result: a.result ?? null })
      : a.text;
  const opts = {
    id: `chatcmpl-${poolBytes(12).toString('base64url')}`,
    model: LOCAL_MODEL,
    created: Math.floor(ctx.clock.now() / 1000),
    promptTokens: input.messages.reduce((n, m) => n + countTokens(textOf(m)), 0),
    maxTokens: input.max_completion_tokens ?? input.max_tokens ?? undefined,
    n: input.n ?? 1,
    includeUsage,
  };
  return input.stream ? localCompletionStream(content, opts) : localCompletion(content, opts);
}

export const chatCompletion = defineTool({
  name: 'chat_completion',
  title: 'Chat completion (OpenAI-compatible)',
  toolset: 'chat',
  description:
    'An OpenAI chat completion. Model gateway-local answers questions about the gateway and runs calculators; other models ' +
    'are proxied to the configured upstream. Free tier: no key, rate-limited per client.',
  input: ChatInput,
  auth: 'public',
  // Served at POST /v1/chat/completions only: its streamed form is not a JSON result.
  expose: { mcp: false },
  handler: async (input, ctx) => {
    await takeChatAllowance(ctx);
    if (input.model === LOCAL_MODEL) return localChat(input, ctx);
    const llm = ctx.config.llm;
    if (!llm) {
      throw new GatewayError('not_found', `The model \`${input.model}\` does not exist: this gateway serves only ${LOCAL_MODEL} (no upstream is configured).`, {
        extra: { model: input.model },
      });
    }
    return input.stream ? proxyChatStream(llm, input, ctx.signal) : proxyChat(llm, input, ctx.signal);
  },
});

export const chatModels = defineTool({
  name: 'chat_models',
  title: 'Chat models (OpenAI-compatible)',
  toolset: 'chat',
  description: 'The models /v1/chat/completions accepts: gateway-local, plus the upstream models when one is configured.',
  input: z.object({}),
  auth: 'public',
  expose: { mcp: false },
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => modelList(ctx),
});

export const chatTools: Tool[] = [chatCompletion, chatModels];
