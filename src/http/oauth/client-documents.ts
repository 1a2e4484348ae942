// Client ID Metadata Documents are fetched through the gateway's egress (the SSRF policy, byte caps and
// timeouts of src/egress), never with a fetch of their own. oidc-provider resolves https client_ids itself
// through `egressFetch`; a loopback http client_id (a local tool or a test, reachable only when
// GATEWAY_EGRESS_ALLOW lets egress reach loopback) is resolved here with the same document rules.
import type { AdapterPayload } from 'oidc-provider';
import type { Egress } from '../../egress/egress.js';

const DOC_MAX_BYTES = 5 * 1024;
const CACHE_MS = 30_000;

/** `fetch` for oidc-provider, on egress: no redirects (the document must be at the client_id itself). */
export function egressFetch(egress: Egress): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const r = await egress.fetch(String(url), {
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? init.body : undefined,
      followRedirects: false,
      maxBytes: DOC_MAX_BYTES,
      totalTimeoutMs: 5_000,
    });
    return new Response(r.status === 204 || r.status === 304 ? null : new Uint8Array(r.body), { status: r.status, headers: r.headers });
  };
}

/** http://127.0.0.1, http://[::1] or http://localhost, with a path: a client_id served on this machine. */
export function isLoopbackClientId(id: string): boolean {
  const u = URL.canParse(id) ? new URL(id) : null;
  return !!u && u.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname) && u.pathname.length > 1 && !u.hash && !u.username && u.href === id;
}

export class LoopbackClientDocuments {
  private readonly cache = new Map<string, { doc: AdapterPayload; at: number }>();

  constructor(private readonly egress: Egress) {}

  /** The client's metadata, or undefined when the document cannot be fetched or breaks the rules. */
  async find(id: string): Promise<AdapterPayload | undefined> {
    const hit = this.cache.get(id);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.doc;
    let doc: unknown;
    try {
      const r = await this.egress.fetch(id, { headers: { accept: 'application/json' }, followRedirects: false, maxBytes: DOC_MAX_BYTES, totalTimeoutMs: 5_000 });
      if (r.status !== 200) return undefined;
      doc = JSON.parse(r.body.toString('utf8'));
    } catch {
      return undefined;
    }
    if (!validDocument(doc, id)) return undefined;
    const kept = { token_endpoint_auth_method: 'none', ...doc } as AdapterPayload;
    if (this.cache.size > 100) this.cache.clear();
    this.cache.set(id, { doc: kept, at: Date.now() });
    return kept;
  }
}

/** The document rules of the draft: it names itself, and a public client holds no shared secret. */
function validDocument(doc: unknown, id: string): doc is Record<string, unknown> {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false;
  const d = doc as Record<string, unknown>;
  if (d.client_id !== id || 'client_secret' in d || 'client_secret_expires_at' in d) return false;
  return d.token_endpoint_auth_method === undefined || d.token_endpoint_auth_method === 'none';
}
