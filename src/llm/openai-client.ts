// A minimal client for an operator-configured OpenAI-compatible server (embeddings, chat, model list); the
// chat proxy with streams is chat-proxy.ts. The upstream is trusted configuration, not user input, so it
// does not go through the egress guard.
import { GatewayError } from '../errors.js';
import { withoutKey } from './upstream-errors.js';

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

/** One generated image as an images endpoint answers it: base64 bytes, or a URL to fetch them from. */
export interface GeneratedImage {
  b64_json?: string;
  url?: string;
  revised_prompt?: string;
}

/** The upstream's error message for a failed call, without the configured key should the upstream echo it. */
function upstreamMessage(text: string, apiKey: string | undefined): string | undefined {
  let message: unknown;
  try {
    const e = (JSON.parse(text) as { error?: unknown }).error;
    message = typeof e === 'string' ? e : (e as { message?: unknown } | undefined)?.message;
  } catch {
    return undefined;
  }
  if (typeof message !== 'string' || !message.trim()) return undefined;
  // Redacted before it is cut: a cut could leave part of the key that no longer matches it.
  return withoutKey(message.trim(), apiKey).slice(0, 500);
}

/**
 * POST {baseUrl}/images/generations in the OpenAI wire format ({model, prompt, n, size}, Bearer key): the
 * answer's `data` items as sent (b64_json or url, maybe revised_prompt). Any failure is `upstream_error`
 * (502) saying the upstream status and, for its own 4xx, its message (a refused prompt, an unknown size).
 */
export async function images(
  cfg: UpstreamConfig & { model: string },
  req: { prompt: string; n: number; size?: string },
  signal?: AbortSignal,
): Promise<{ created?: number; data: GeneratedImage[] }> {
  const timeout = AbortSignal.timeout(cfg.timeoutMs ?? 120_000);
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${cfg.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
      body: JSON.stringify({ model: cfg.model, prompt: req.prompt, n: req.n, ...(req.size ? { size: req.size } : {}) }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new GatewayError('upstream_error', timedOut ? `The images endpoint did not answer within ${Math.round((cfg.timeoutMs ?? 120_000) / 1000)} s.` : 'The images endpoint is unreachable.', {
      extra: { reason: timedOut ? 'timeout' : 'unreachable' },
    });
  }
  if (!res.ok) {
    const said = res.status >= 400 && res.status < 500 ? upstreamMessage(text, cfg.apiKey) : undefined;
    const why = res.status === 401 || res.status === 403 ? ' (it refused the gateway’s key: check IMAGE_API_KEY)' : '';
    throw new GatewayError('upstream_error', `The images endpoint answered ${res.status}${why}${said ? `: ${said}` : '.'}`, {
      extra: { reason: 'upstream_status', upstream_status: res.status },
    });
  }
  let body: { created?: unknown; data?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new GatewayError('upstream_error', 'The images endpoint answered with something other than JSON.', { extra: { reason: 'bad_answer' } });
  }
  const data = Array.isArray(body?.data) ? (body.data as unknown[]) : null;
  const ok = (d: unknown): d is GeneratedImage =>
    typeof d === 'object' && d !== null && (typeof (d as GeneratedImage).b64_json === 'string' || typeof (d as GeneratedImage).url === 'string');
  if (!data || data.length === 0 || !data.every(ok)) {
    throw new GatewayError('upstream_error', 'The images endpoint’s answer is not in the OpenAI format (data[].b64_json or data[].url).', { extra: { reason: 'bad_answer' } });
  }
  return { ...(typeof body.created === 'number' ? { created: body.created } : {}), data };
}
