// What the two direct tools/call paths (modern-direct.ts, session-direct.ts) share: which params make a call
// "plain" (nothing in them that the SDK's other rules would act on), and a thrown method error as the JSON-RPC
// error the SDK would send.
import { isPlainObject } from '../plain-object.js';
import { LEGACY_RESOURCE_NOT_FOUND, McpMethodError } from './methods.js';

export interface PlainCall {
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
  meta: Record<string, unknown> | undefined;
}

const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/**
 * The call of tools/call params holding only a name, object arguments and `_meta` without a progress token (it
 * wants an SSE answer) or a related task (a shape the SDK checks); undefined otherwise.
 */
export function plainCallParams(id: string | number, params: unknown): PlainCall | undefined {
  if (!isPlainObject(params)) return undefined;
  for (const k in params) if (!PARAM_KEYS.has(k)) return undefined;
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string') return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  if (meta !== undefined && (!isPlainObject(meta) || meta.progressToken !== undefined || RELATED_TASK in meta)) return undefined;
  return { id, name, args: args as PlainCall['args'], meta: meta as PlainCall['meta'] };
}

/**
 * A thrown method error as the SDK sends it, the bare message and the era's code (`modern`: the 2026-07-28
 * revision sends "resource not found" as invalid params); anything unexpected as -32603 without the gateway's
 * internals.
 */
export function callError(err: unknown, id: string | number, modern: boolean): object {
  if (!(err instanceof McpMethodError)) return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } };
  const code = modern && err.code === LEGACY_RESOURCE_NOT_FOUND ? -32602 : err.code;
  return { jsonrpc: '2.0', id, error: { code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) } };
}
