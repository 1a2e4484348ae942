// Token usage in OpenAI's shape, summed over every call a deliverable took: metered orders are charged on it.

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const noUsage = (): Usage => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

export const addUsage = (a: Usage, b: Usage): Usage => ({
  prompt_tokens: a.prompt_tokens + b.prompt_tokens,
  completion_tokens: a.completion_tokens + b.completion_tokens,
  total_tokens: a.total_tokens + b.total_tokens,
});

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);

/**
 * The usage a server reported; a server that reports none (some local ones) is estimated at four characters
 * a token, so a metered order is never free because its model kept quiet.
 */
export function usageOf(reported: unknown, promptChars: number, completionChars: number): Usage {
  const r = (typeof reported === 'object' && reported !== null ? reported : {}) as Record<string, unknown>;
  const prompt = count(r.prompt_tokens) ?? Math.ceil(promptChars / 4);
  const completion = count(r.completion_tokens) ?? Math.ceil(completionChars / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: count(r.total_tokens) ?? prompt + completion };
}
