// One chat completion from the operator's OpenAI-compatible server (config.llm): POST {baseUrl}/chat/completions,
// plain text back with its usage. Every failure is a GatewayError: no model configured → `unavailable` (503),
// a timeout, an unreachable server, a non-2xx status or a reply not in the OpenAI format → `upstream_error` (502).
import { GatewayError } from '../../../src/errors.js';
import { postJson } from '../../../src/llm/openai-client.js';
import { usageOf, type Usage } from './usage.js';

/** config.llm as src/config.ts builds it. */
export interface LlmSettings {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  timeoutMs: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** OpenAI's structured-output request: the reply must be JSON matching `schema`. */
export interface JsonSchemaFormat {
  type: 'json_schema';
  json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
}

export interface ModelReply {
  text: string;
  usage: Usage;
  /** `length` when the server cut the reply off. */
  finishReason?: string;
}

export interface CallOptions {
  responseFormat?: JsonSchemaFormat;
  signal?: AbortSignal;
}

interface Completion {
  choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
  usage?: unknown;
}

export async function callModel(llm: LlmSettings | undefined, messages: ChatMessage[], opts: CallOptions = {}): Promise<ModelReply> {
  if (!llm) throw new GatewayError('unavailable', 'No language model is configured (LLM_BASE_URL), so this deliverable cannot be produced.', { extra: { reason: 'no_model' } });
  if (!llm.model) throw new GatewayError('unavailable', 'The language model server has no model configured (LLM_MODEL).', { extra: { reason: 'no_model' } });
  const body = { model: llm.model, messages, stream: false, ...(opts.responseFormat ? { response_format: opts.responseFormat } : {}) };
  let out: Completion;
  try {
    out = await postJson<Completion>(llm, '/chat/completions', body, opts.signal);
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    // postJson reads the body after its fetch resolved: a timeout there, or a body that is not JSON, arrives raw.
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new GatewayError('upstream_error', timedOut ? 'The upstream model server timed out.' : 'The upstream model server answered with something other than JSON.', {
      extra: { reason: timedOut ? 'timeout' : 'bad_answer' },
    });
  }
  const choice = Array.isArray(out?.choices) ? out.choices[0] : undefined;
  const content = choice?.message?.content;
  if (!choice || (content !== null && content !== undefined && typeof content !== 'string')) {
    throw new GatewayError('upstream_error', 'The upstream model server’s answer is not in the OpenAI format (choices[0].message.content).', { extra: { reason: 'bad_answer' } });
  }
  const text = typeof content === 'string' ? content : '';
  const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
  return { text, usage: usageOf(out.usage, promptChars, text.length), ...(typeof choice.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}) };
}

/** True when the server refused the request itself (400/422), as one without structured output does. */
export function refusedRequest(err: unknown): boolean {
  if (!(err instanceof GatewayError) || err.code !== 'upstream_error') return false;
  const status = err.extra.upstream_status;
  return status === 400 || status === 422;
}
