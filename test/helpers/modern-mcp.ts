// One raw 2026-07-28 MCP request, framed as the revision says: the envelope in `_meta` (protocol version,
// client info, client capabilities), and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers.
export const MODERN = '2026-07-28';

export interface ModernOptions {
  /** The client capabilities the envelope declares. */
  capabilities?: Record<string, unknown>;
  /** More `_meta` keys. */
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Mcp-Name; by default the tool name of a tools/call or the task id of a tasks/* request. */
  name?: string;
  id?: string | number;
  signal?: AbortSignal;
  /** The query of the /mcp URL (e.g. `toolsets=memory`). */
  query?: string;
}

let nextId = 1;

export function modernEnvelope(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

export function modernPost(base: string, method: string, params: Record<string, unknown> = {}, opts: ModernOptions = {}): Promise<Response> {
  const name = opts.name ?? (method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined);
  return fetch(`${base}/mcp${opts.query ? `?${opts.query}` : ''}`, {
    method: 'POST',
    signal: opts.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...opts.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: opts.id ?? nextId++, method, params: { ...params, _meta: { ...modernEnvelope(opts.capabilities), ...opts.meta } } }),
  });
}
