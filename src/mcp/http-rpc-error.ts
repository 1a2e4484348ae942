// A JSON-RPC error answered as a plain HTTP response by the Streamable HTTP transport, before any MCP server sees the
// request (bad headers, unknown session, a refused open), with the request's id when it has one.
import type { ServerResponse } from 'node:http';
import { sendJsonText } from '../http/send.js';

export function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null): void {
  sendJsonText(res, status, JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), headers, 'application/json');
}

/** The id of a single request, to answer its error with (null for a batch, a notification or a bad id). */
export const requestIdOf = (raw: unknown): string | number | null => {
  const id = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as { id?: unknown }).id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};
