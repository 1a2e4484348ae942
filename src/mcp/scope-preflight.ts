// A signed-in request (/mcp/agent) that calls a tool its access token was not granted the scope for is answered
// HTTP 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…"` before it
// reaches the MCP server, as the 2026-07-28 revision (and 2025-11-25's scope challenge) asks, so that the SDKs start a
// step-up sign-in. The scope named is what the token holds plus what the call needs, so the new token loses nothing.
// The registry still checks every call's scope itself (a tool called in a batch, or by another path).
import { bearerChallenge } from '../auth/oauth-resource.js';
import { OAUTH_SCOPES, scopeFor } from '../auth/oauth-scopes.js';
import type { Credentials } from '../registry/call-types.js';
import type { Tool } from '../registry/types.js';

export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const callOf = (m: unknown): { id: unknown; name: string } | null => {
  if (m === null || typeof m !== 'object') return null;
  const r = m as { method?: unknown; id?: unknown; params?: { name?: unknown } };
  return r.method === 'tools/call' && typeof r.params?.name === 'string' ? { id: r.id ?? null, name: r.params.name } : null;
};

/** The 403 a request gets when one of its tool calls needs a scope the token was not granted; null otherwise. */
export function scopeRefusal(tool: (name: string) => Tool | undefined, baseUrl: string, credentials: Credentials, raw: unknown): Refusal | null {
  const granted = credentials.accessToken?.scopes;
  if (!granted) return null;
  for (const m of Array.isArray(raw) ? raw : [raw]) {
    const call = callOf(m);
    const t = call && tool(call.name);
    if (!call || !t?.expose.mcp) continue;
    const need = scopeFor(t);
    if (granted.includes(need)) continue;
    const scope = OAUTH_SCOPES.filter((s) => s === need || granted.includes(s)).join(' ');
    const message = `The tool ${t.name} needs the "${need}" scope, which this access token was not granted: sign in again for "${scope}".`;
    return {
      status: 403,
      headers: { 'WWW-Authenticate': bearerChallenge(baseUrl, { error: 'insufficient_scope', scope }) },
      body: JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32003, message, data: { error: 'insufficient_scope', required_scope: need, scope } } }),
    };
  }
  return null;
}
