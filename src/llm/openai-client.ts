// A minimal client for an operator-configured OpenAI-compatible server (embeddings, chat, model list); the
// chat proxy with streams is chat-proxy.ts. The upstream is trusted configuration, not user input, so it
// does not go through the egress guard.
import { GatewayError } from '../errors.js';

export interface UpstreamConfig {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
}

export async function postJson<T>(cfg: UpstreamConfig, path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(cfg.timeoutMs ?? 30_000);
  let res: Response;
  try {
    res = await fetch(`${cfg.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new GatewayError('upstream_error', timedOut ? 'The upstream model server timed out.' : 'The upstream model server is unreachable.');
  }
  if (!res.ok) throw new GatewayError('upstream_error', `The upstream model server answered ${res.status}.`, { extra: { upstream_status: res.status } });
  return (await res.json()) as T;
}

export async function embed(cfg: UpstreamConfig & { model: string }, inputs: string[]): Promise<number[][]> {
  const out = await postJson<{ data: { embedding: number[]; index: number }[] }>(cfg, '/embeddings', { model: cfg.model, input: inputs });
  return [...out.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
}

export async function chat(cfg: UpstreamConfig & { model: string }, messages: { role: string; content: string }[], signal?: AbortSignal): Promise<string> {
  const out = await postJson<{ choices: { message: { content: string } }[] }>(cfg, '/chat/completions', { model: cfg.model, messages }, signal);
  return out.choices[0]?.message?.content ?? '';
}

export interface UpstreamModel {
  id: string;
  object?: string;
  created?: number;
  owned_by?: string;
}

/** The upstream's model list (GET /models). */
export async function listModels(cfg: UpstreamConfig, signal?: AbortSignal): Promise<UpstreamModel[]> {
  const timeout = AbortSignal.timeout(cfg.timeoutMs ?? 30_000);
  let res: Response;
  try {
    res = await fetch(`${cfg.baseUrl}/models`, {
      headers: cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {},
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch {
    throw new GatewayError('upstream_error', 'The upstream model server is unreachable.');
  }
  if (!res.ok) throw new GatewayError('upstream_error', `The upstream model server answered ${res.status}.`, { extra: { upstream_status: res.status } });
  const body = (await res.json().catch(() => null)) as { data?: unknown } | null;
  if (!body || !Array.isArray(body.data)) throw new GatewayError('upstream_error', 'The upstream model list is not in the OpenAI format.');
  return body.data.filter((m): m is UpstreamModel => typeof m === 'object' && m !== null && typeof (m as UpstreamModel).id === 'string');
}
