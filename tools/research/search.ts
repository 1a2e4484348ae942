// The configured search provider research finds its sources with: a SearXNG instance (its JSON API, which anyone
// can self-host) or the Brave Search API. The provider is operator configuration, so it is called with fetch
// directly, as the language-model client is, not through egress; the result URLs it returns are the user's side
// of things and are read through browse (egress, robots.txt). Errors never carry the provider's URL or key.
import type { SearchConfig } from '../../src/config.js';
import { GatewayError } from '../../src/errors.js';

export const SEARCH_TIMEOUT_MS = 10_000;

export interface SearchHit {
  url: string;
  title: string | null;
  snippet: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The provider's hits for `q`, at most `count`, http(s) URLs only, without repeats (fragment ignored). */
export async function searchWeb(cfg: SearchConfig, q: string, count: number, signal?: AbortSignal): Promise<SearchHit[]> {
  const url =
    cfg.provider === 'brave'
      ? `${cfg.baseUrl}/web/search?${new URLSearchParams({ q, count: String(Math.min(count, 20)) })}`
      : `${cfg.baseUrl}/search?${new URLSearchParams({ q, format: 'json' })}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (cfg.provider === 'brave') headers['x-subscription-token'] = cfg.apiKey ?? '';
  else if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`; // a SearXNG behind an authenticating proxy
  const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new GatewayError('upstream_error', `The search provider (${cfg.provider}) ${timedOut ? 'timed out' : 'is unreachable'}.`, { extra: { reason: 'search_failed' } });
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    const hint =
      cfg.provider === 'searxng' && res.status === 403
        ? ' (a SearXNG instance answers 403 when its JSON format is off: add "json" to search.formats in its settings.yml)'
        : cfg.provider === 'brave' && (res.status === 401 || res.status === 403 || res.status === 422)
          ? ' (check SEARCH_API_KEY, the Brave Search API subscription token)'
          : '';
    throw new GatewayError('upstream_error', `The search provider (${cfg.provider}) answered ${res.status}${hint}.`, { extra: { reason: 'search_failed', upstream_status: res.status } });
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new GatewayError('upstream_error', `The search provider (${cfg.provider}) did not answer JSON.`, { extra: { reason: 'search_failed' } });
  }
  const list = cfg.provider === 'brave' ? (body as { web?: { results?: unknown } })?.web?.results : (body as { results?: unknown })?.results;
  if (list !== undefined && !Array.isArray(list)) {
    throw new GatewayError('upstream_error', `The search provider (${cfg.provider}) answered in an unexpected shape.`, { extra: { reason: 'search_failed' } });
  }
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (const r of (list ?? []) as Record<string, unknown>[]) {
    if (hits.length >= count) break;
    const raw = str(r?.url);
    if (!raw) continue;
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      continue;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
    u.hash = '';
    if (seen.has(u.href)) continue;
    seen.add(u.href);
    hits.push({ url: u.href, title: str(r.title), snippet: str(cfg.provider === 'brave' ? r.description : r.content) });
  }
  return hits;
}
