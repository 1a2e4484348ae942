// Opens an MCP Streamable HTTP session by hand so the load generator can reuse it.
const ACCEPT = 'application/json, text/event-stream';

export async function openMcpSession(url: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (!session) throw new Error(`no session id from ${url}: ${init.status}`);
  const sessionHeaders = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18', ...headers };
  const ack = await fetch(url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await ack.text();
  return sessionHeaders;
}

/** A body factory for tools/call with a fresh JSON-RPC id per request. */
export function toolCallBodies(name: string, args: Record<string, unknown>): () => string {
  let id = 1;
  return () => JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
}

/** Checks one call answers correctly before the load runs (a benchmark of errors measures nothing). */
export async function checkToolCall(url: string, headers: Record<string, string>, body: string): Promise<void> {
  const r = await fetch(url, { method: 'POST', headers, body });
  const text = await r.text();
  if (r.status !== 200 || text.includes('"isError":true') || text.includes('"error"')) throw new Error(`tools/call check failed: ${r.status} ${text.slice(0, 300)}`);
}

/** Headers of a 2026-07-28 request: no session; the method and tool name ride in headers the server checks. */
export const modernHeaders = (toolName: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: ACCEPT,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': toolName,
});

/** A body factory for a stateless 2026-07-28 tools/call: the era's envelope in `_meta`, a fresh id each time. */
export function modernToolCallBodies(name: string, args: Record<string, unknown>): () => string {
  let id = 1;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return () => JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args, _meta } });
}
