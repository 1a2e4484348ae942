// Puts the MCP transports on the router behind the DNS-rebinding guard.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OriginGuard } from '../http/origin-guard.js';
import type { Router } from '../http/router.js';
import { sendJson } from '../http/send.js';

type Handler = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => Promise<void>;

export interface McpHandlers {
  streamable: Handler;
  sseOpen: Handler;
  sseMessage: Handler;
}

/**
 * The toolsets a connection asks for (tool-surface.ts): `?toolsets=` in the URL, else the `X-MCP-Toolsets` header
 * (for hosts whose URL is fixed, as with OAuth, where the URL is the resource).
 */
export const toolsetsOf = (query: URLSearchParams, req?: IncomingMessage): string[] => {
  const header = req?.headers['x-mcp-toolsets'];
  return (query.get('toolsets') ?? (typeof header === 'string' ? header : ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
};

export function mountMcp(router: Router, guard: OriginGuard, h: McpHandlers): void {
  const guarded =
    (handler: Handler) =>
    async (req: IncomingMessage, res: ServerResponse, _m: unknown, rawQuery: string): Promise<void> => {
      const refused = guard.check(req);
      if (refused) return sendJson(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: refused }, id: null });
      try {
        await handler(req, res, new URLSearchParams(rawQuery));
      } catch {
        if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
        else res.destroy();
      }
    };
  // Streamable HTTP answers every method itself (405 with Allow for the others).
  for (const method of ['POST', 'GET', 'DELETE', 'PUT', 'PATCH']) router.add(method, '/mcp', guarded(h.streamable));
  router.add('GET', '/mcp/sse', guarded(h.sseOpen));
  router.add('POST', '/mcp/messages', guarded(h.sseMessage));
}
