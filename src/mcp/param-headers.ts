// Custom request headers (SEP-2243, the 2026-07-28 Streamable HTTP transport): a tool may mark a primitive input
// property with `x-mcp-header: <Name>` in its input schema; a client then also sends that argument as the header
// `Mcp-Param-<Name>`, so proxies and load balancers can route on it without reading the body. A server MUST check
// that the two agree before acting: a header missing while the body carries the value, a value that differs, or a
// Base64 form (`=?base64?…?=`) that is not canonical Base64 of UTF-8 is refused with HTTP 400 and HeaderMismatch
// (-32020), as the standard headers are. SDK v2 checks this only for its high-level McpServer; the gateway serves
// the revision on the low-level Server, so it checks here, from the schema the tool lists.
import type { IncomingHttpHeaders } from 'node:http';

export const HEADER_MISMATCH = -32020;

interface Declaration {
  /** Where the value sits in the arguments (a chain of `properties`). */
  path: string[];
  header: string;
  type: string | undefined;
}

const X_MCP_HEADER = 'x-mcp-header';
const PREFIX = '=?base64?';
const SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The declarations of a listed input schema: only along `properties`, the one place the revision allows them. */
export function headerDeclarations(schema: Record<string, unknown>): Declaration[] {
  const out: Declaration[] = [];
  const visit = (node: unknown, path: string[]) => {
    if (!isObject(node)) return;
    const name = node[X_MCP_HEADER];
    if (path.length > 0 && typeof name === 'string' && name !== '') out.push({ path, header: name, type: typeof node.type === 'string' ? node.type : undefined });
    if (isObject(node.properties)) for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key]);
  };
  visit(schema, []);
  return out;
}

/** A header value as the client meant it: the Base64 form decoded, anything else as it is; undefined when malformed. */
function decode(value: string): string | undefined {
  if (!(value.startsWith(PREFIX) && value.endsWith(SUFFIX) && value.length >= PREFIX.length + SUFFIX.length)) return value;
  const b64 = value.slice(PREFIX.length, value.length - SUFFIX.length);
  if (!CANONICAL_BASE64.test(b64)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

/** An argument as its header carries it: strings as they are, numbers in decimal, booleans as true/false. */
function asHeader(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

const valueAt = (args: unknown, path: string[]): unknown => path.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), args);

/**
 * Why these headers disagree with the arguments (undefined when they agree). An argument that is absent or null
 * expects no header (one sent anyway is ignored); numbers compare as numbers (`42.0` is `42`).
 */
export function paramHeaderMismatch(declarations: Declaration[], args: unknown, headers: IncomingHttpHeaders): { header: string; body: string } | undefined {
  for (const d of declarations) {
    const raw = valueAt(args, d.path);
    const body = asHeader(raw);
    if (raw === undefined || raw === null || body === undefined) continue;
    const header = `Mcp-Param-${d.header}`;
    const sent = headers[header.toLowerCase()];
    const where = d.path.join('.');
    if (typeof sent !== 'string') return { header, body: `the body carries ${where}=${JSON.stringify(raw)} but the ${header} header is absent` };
    const value = decode(sent.trim());
    if (value === undefined) return { header, body: `the ${header} header carries an invalid Base64 value` };
    const same = typeof raw === 'number' && DECIMAL.test(value) ? Number(value) === raw : value === body;
    if (!same) return { header, body: `the ${header} header decodes to ${JSON.stringify(value)} but the body carries ${where}=${JSON.stringify(raw)}` };
  }
  return undefined;
}
