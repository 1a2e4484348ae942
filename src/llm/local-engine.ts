// The wire side of the embedded model `gateway-local`: a deterministic answer text becomes an OpenAI
// `chat.completion`, or a stream of `chat.completion.chunk`s (role, content pieces, finish, optional usage).
// Tokens are counted approximately (words, numbers and punctuation marks), the same way every time.
import type { ChatStream } from './chat-stream.js';

export const LOCAL_MODEL = 'gateway-local';
const FINGERPRINT = 'gateway-local-v1';

export interface CompletionOptions {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  promptTokens: number;
  /** max_tokens / max_completion_tokens: the answer is cut there with finish_reason "length". */
  maxTokens?: number;
  n: number;
  includeUsage: boolean;
}

const TOKEN = /[\p{L}]+|\p{N}+|[^\s\p{L}\p{N}]/gu;

export const countTokens = (text: string): number => text.match(TOKEN)?.length ?? 0;

/** The text cut after `max` tokens (keeping the separators in between). */
export function truncateTokens(text: string, max: number | undefined): { text: string; truncated: boolean } {
  if (max === undefined) return { text, truncated: false };
  let seen = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (++seen > max) return { text: text.slice(0, m.index).trimEnd(), truncated: true };
  }
  return { text, truncated: false };
}

function usage(prompt: number, completion: number) {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function localCompletion(answer: string, o: CompletionOptions) {
  const cut = truncateTokens(answer, o.maxTokens);
  const completionTokens = countTokens(cut.text) * o.n;
  return {
    id: o.id,
    object: 'chat.completion' as const,
    created: o.created,
    model: o.model,
    system_fingerprint: FINGERPRINT,
    choices: Array.from({ length: o.n }, (_, index) => ({
      index,
      message: { role: 'assistant' as const, content: cut.text, refusal: null },
      logprobs: null,
      finish_reason: cut.truncated ? ('length' as const) : ('stop' as const),
    })),
    usage: usage(o.promptTokens, completionTokens),
  };
}

/** Sentence-sized pieces, so a client sees the answer arrive in parts as from any model. */
function pieces(text: string): string[] {
  return text.match(/[^\n.!?]*(?:[.!?]+(?=\s|$)|\n)\s*|[^\n.!?]+$|[.!?]+/g) ?? [text];
}

export function localCompletionStream(answer: string, o: CompletionOptions): ChatStream {
  const cut = truncateTokens(answer, o.maxTokens);
  const base = { id: o.id, object: 'chat.completion.chunk', created: o.created, model: o.model, system_fingerprint: FINGERPRINT };
  const withUsage = o.includeUsage ? { usage: null } : {};
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null) =>
    JSON.stringify({ ...base, choices: [{ index, delta, logprobs: null, finish_reason: finish }], ...withUsage });
  const events: string[] = [];
  for (let i = 0; i < o.n; i++) {
    events.push(chunk(i, { role: 'assistant', content: '', refusal: null }, null));
    for (const p of pieces(cut.text)) events.push(chunk(i, { content: p }, null));
    events.push(chunk(i, {}, cut.truncated ? 'length' : 'stop'));
  }
  // stream_options.include_usage: one more chunk with empty choices and the totals.
  if (o.includeUsage) events.push(JSON.stringify({ ...base, choices: [], usage: usage(o.promptTokens, countTokens(cut.text) * o.n) }));
  return {
    kind: 'chat_stream',
    events: (async function* () {
      yield* events;
    })(),
  };
}
