// POST /vault/call: calls an external API with a stored credential injected server-side. The credential is
// decrypted with the caller's Bearer secret, sent only to hosts the entry allows, through the egress guard,
// never logged, and redacted from whatever the API sends back.
import { z } from 'zod';
import { jsonValue } from '../../src/registry/json-value.js';
import { GatewayError, validationError } from '../../src/errors.js';
import { isEgressError } from '../../src/egress/index.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { openEntry } from './keys.js';
import { credentialForms, redactBytes, redactText } from './redact.js';

const DROP_RESPONSE_HEADERS = new Set(['set-cookie', 'connection', 'keep-alive', 'transfer-encoding', 'proxy-authenticate', 'www-authenticate']);
const TEXTUAL = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|[\w.+-]*\+(json|xml)))/i;

const Auth = z.object({
  type: z.enum(['bearer', 'header', 'basic', 'query']).describe('bearer → Authorization: Bearer; header → a named header; basic → user:pass; query → a query parameter.'),
  ref: z
    .string()
    .min(1)
    .max(201)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9_.-]+)?$/, '"entry" or "entry:field"')
    .describe('Vault entry, or entry:field for one field of an object value.'),
  name: z.string().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/).optional().describe('Header or query parameter name (header: default X-API-Key; query: default api_key).'),
});

function hostAllowed(allowed: string[] | undefined, url: URL): boolean {
  if (!allowed) return true;
  const host = url.host.toLowerCase();
  const name = url.hostname.toLowerCase();
  return allowed.some((p) => (p.startsWith('*.') ? name.endsWith(p.slice(1)) && name !== p.slice(2) : p === host || p === name));
}

/** What an HTTP header value may hold (RFC 9110 field-value, as Node checks it): anything else cannot be sent. */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * A header that cannot be sent is the caller's to fix, said as such (422), not the upstream failure it would become:
 * a vault value with a character such as "…" or a line break, or a header of the call itself.
 */
function refuseUnsendableHeaders(headers: Record<string, string>, injected: string[], ref: string): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!UNSENDABLE.test(value)) continue;
    if (injected.includes(name)) {
      throw validationError([{ loc: ['body', 'auth', 'ref'], msg: `The vault entry "${ref.split(':')[0]}" holds a character an HTTP header cannot carry (a line break, or one such as "…"): store the credential exactly as its API issued it.`, type: 'value_error' }]);
    }
    throw validationError([{ loc: ['body', 'headers', name], msg: 'A header value may hold only visible ASCII, spaces, tabs and Latin-1 characters.', type: 'value_error' }]);
  }
}

async function credential(ctx: ToolContext, ref: string, type: string): Promise<{ value: string; allowed?: string[] }> {
  const [entry, field] = ref.split(':');
  const { row, value } = await openEntry(ctx, entry);
  const allowed = (JSON.parse(row.metadata) as { allowed_hosts?: string[] }).allowed_hosts;
  const bad = (msg: string) => new GatewayError('validation_error', msg, { detail: [{ loc: ['auth', 'ref'], msg, type: 'value_error' }] });
  if (field) {
    if (typeof value !== 'object' || value === null || typeof (value as Record<string, unknown>)[field] !== 'string') throw bad(`The entry "${entry}" has no field "${field}".`);
    return { value: (value as Record<string, string>)[field], allowed };
  }
  if (typeof value === 'string') return { value, allowed };
  const obj = value as Record<string, string>;
  if (type === 'basic' && typeof obj.username === 'string' && typeof obj.password === 'string') return { value: `${obj.username}:${obj.password}`, allowed };
  throw bad(`The entry "${entry}" holds several fields: name one as "${entry}:field"${type === 'basic' ? ', or store {username, password}' : ''}.`);
}

export const vaultCall = defineTool({
  name: 'vault_call',
  title: 'Call an API with a stored credential',
  toolset: 'vault',
  description:
    'Calls an external http(s) API with a vault credential injected server-side (bearer, header, basic or query), through ' +
    "the gateway's egress guard. The credential is refused for hosts outside the entry's metadata.allowed_hosts, never " +
    'logged, and redacted (raw, base64, URL-encoded) from the returned headers and body. Returns status, headers, body ' +
    '(text, or base64 for binary) and how many redactions were made. Bearer secret only.',
  input: z.object({
    url: z.url({ protocol: /^https?$/ }).describe('The API URL (http or https).'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET').describe('HTTP method.'),
    headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/), z.string().max(8000)).default({}).describe('Extra request headers.'),
    query: z.record(z.string(), z.string()).default({}).describe('Extra query parameters.'),
    body: z.union([z.string(), jsonValue()]).optional().describe('Request body: a string, or JSON (sent as application/json).'),
    auth: Auth,
    timeout_ms: z.number().int().min(100).max(60_000).default(15_000).describe('Total time limit.'),
    max_bytes: z.number().int().min(1).max(5 * 1024 * 1024).default(1024 * 1024).describe('Largest response body read.'),
  }),
  auth: 'owner',
  acceptsLogin: true,
  annotations: { openWorldHint: true, destructiveHint: true, idempotentHint: false },
  handler: async (input, ctx) => {
    const url = new URL(input.url);
    for (const [k, v] of Object.entries(input.query)) url.searchParams.set(k, v);
    const cred = await credential(ctx, input.auth.ref, input.auth.type);
    if (!hostAllowed(cred.allowed, url)) {
      throw new GatewayError('forbidden', `The vault entry "${input.auth.ref.split(':')[0]}" may not be sent to ${url.host} (see its allowed_hosts).`);
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(input.headers)) headers[k.toLowerCase()] = v;
    const secrets = [cred.value];
    const sensitive: string[] = [];
    switch (input.auth.type) {
      case 'bearer':
        headers.authorization = `Bearer ${cred.value}`;
        sensitive.push('authorization');
        break;
      case 'basic': {
        const encoded = Buffer.from(cred.value).toString('base64');
        headers.authorization = `Basic ${encoded}`;
        secrets.push(...cred.value.split(':').filter((p) => p.length >= 4));
        sensitive.push('authorization');
        break;
      }
      case 'header': {
        const name = (input.auth.name ?? 'X-API-Key').toLowerCase();
        headers[name] = cred.value;
        sensitive.push(name);
        break;
      }
      case 'query':
        url.searchParams.set(input.auth.name ?? 'api_key', cred.value);
        break;
    }
    refuseUnsendableHeaders(headers, sensitive, input.auth.ref);
    let body: string | undefined;
    if (input.body !== undefined && input.method !== 'GET' && input.method !== 'HEAD') {
      body = typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
      if (typeof input.body !== 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
    }
    let res;
    try {
      // Every hop stays within allowed_hosts: a redirect carries a query credential wherever its Location says.
      const redirectAllowed = (next: URL) => hostAllowed(cred.allowed, next);
      res = await ctx.services.egress.fetch(url, { method: input.method, headers, body, sensitiveHeaders: sensitive, totalTimeoutMs: input.timeout_ms, maxBytes: input.max_bytes, redirectAllowed });
    } catch (err) {
      if (!isEgressError(err)) throw err;
      const code = err.code === 'blocked_address' || err.code === 'scheme' || err.code === 'redirect_refused' ? 'forbidden' : err.code === 'bad_url' ? 'validation_error' : 'upstream_error';
      throw new GatewayError(code, `The call failed: ${redactText(err.message, credentialForms(secrets)).text}`, { extra: { reason: err.code } });
    }
    const forms = credentialForms(secrets);
    let redactions = 0;
    const outHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (DROP_RESPONSE_HEADERS.has(k)) continue;
      const r = redactText(v, forms);
      redactions += r.hits;
      outHeaders[k] = r.text;
    }
    const cleaned = redactBytes(res.body, forms);
    redactions += cleaned.hits;
    const ct = res.headers['content-type'] ?? '';
    const asText = TEXTUAL.test(ct) || (!ct && Buffer.from(cleaned.bytes.toString('utf8'), 'utf8').equals(cleaned.bytes));
    return {
      status: res.status,
      url: redactText(res.url, forms).text,
      headers: outHeaders,
      ...(asText ? { body: cleaned.bytes.toString('utf8') } : { body_base64: cleaned.bytes.toString('base64') }),
      bytes: cleaned.bytes.length,
      redactions,
    };
  },
});
