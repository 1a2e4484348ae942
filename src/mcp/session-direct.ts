// A plain `tools/call` on a 2025-era session, answered without SDK v1's Protocol layer (a zod parse of the
// message as a union, again as the request and the result, a handler lookup, an abort controller kept by id): the
// session's own tool call (server.ts, with its vault_login binding) runs as its handler would, and the session
// transport carries the exchange as it does the SDK's: the id is pending, a long call is let go and resumed, and
// a hang-up, a `notifications/cancelled` naming it or the session's end aborts it.
//
// "Plain" is one JSON-RPC request (no batch) whose params are name, arguments and `_meta` without a progress token,
// on a session whose client may not be asked anything for this call (input-requests.ts `mayAsk`: a confirmation or
// a tool's questions go on the request's own stream, which the SDK drives). Anything else goes to the SDK as before. test/mcp/session-direct.test.ts checks the two agree.
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../plain-object.js';
import type { Credentials } from '../registry/types.js';
import type { HttpSessionTransport } from './http-transport.js';
import { callError, plainCallParams, type PlainCall } from './plain-call.js';
import type { PlainToolCall } from './server.js';

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** The call, when this parsed body is one plain tools/call request (a valid JSON-RPC request by its shape). */
export function plainSessionCall(body: unknown): PlainCall | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  for (const k in body) if (!MESSAGE_KEYS.has(k)) return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isInteger(id)) return undefined;
  return plainCallParams(id as string | number, params);
}

/** Runs the call on the session; the transport delivers the answer as it does the SDK's (JSON, or SSE once let go). */
export async function answerOnSession(transport: HttpSessionTransport, res: ServerResponse, run: PlainToolCall, call: PlainCall, credentials: Credentials): Promise<void> {
  const signal = transport.handleDirect(call.id, res);
  let message: JSONRPCMessage;
  try {
    message = { result: await run(call.name, call.args, call.meta, credentials, signal), jsonrpc: '2.0', id: call.id };
  } catch (err) {
    message = callError(err, call.id, false) as JSONRPCMessage;
  }
  // Cancelled, or its client gone: as in the SDK, no answer.
  if (signal.aborted) return transport.dropDirect(call.id);
  await transport.send(message);
}
