// A plain 2026-07-28 `tools/call` answered without the SDK's per-request machinery (a fresh Server, a transport,
// web Request and Response objects, zod parses of the message already classified): the era's most common
// request, whose answer the SDK shapes in fixed steps that are repeated here (the result gets `resultType:
// 'complete'` and the server's identity in `_meta`; a method error is a JSON-RPC error sent with 200). The tool
// runs through the same methods.ts → registry.call as on every other path.
//
// "Plain" is decided before anything runs, and everything else goes to the SDK, which owns those rules: a
// revision other than the one served here, a missing or encoded header (the SDK's standard-header checks),
// params beyond name/arguments/_meta (a retried input round, a task request), a progress token (answered over
// SSE), a client that may be asked something (one that declared elicitation, or sampling or roots when the tool has
// questions of its own: a confirmation or the questions become an input round the SDK drives), or the Tasks extension.
// test/mcp/modern-direct.test.ts checks that both answer the same.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inputRequired, SERVER_INFO_META_KEY, type CallToolResult, type InboundClassificationOutcome, type InputRequests } from '@modelcontextprotocol/server';
import type { Credentials } from '../registry/types.js';
import { sendJsonText } from '../http/send.js';
import { isPlainObject } from '../plain-object.js';
import { MISSING_CLIENT_CAPABILITY, mcpMethods, NeedsInput, SERVER_INFO, type McpCatalog, type McpMethods } from './methods.js';
import { callError, plainCallParams, type PlainCall } from './plain-call.js';
import { mayAsk } from './input-requests.js';
import { acceptsTasks } from './tasks.js';
import { knownSelection } from './tool-surface.js';

/** The revision this path answers; a request naming another goes to the SDK. */
const REVISION = '2026-07-28';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** Toolsets selections whose methods are kept (a URL may name any combination; others are made per call). */
const KEPT_SELECTIONS = 64;
/** A name sent as is in Mcp-Name (an encoded one, `=?base64?…?=`, is the SDK's to decode). */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * The call, when this request is a plain tools/call; undefined sends it to the SDK. `asks` tells whether a tool has
 * questions of its own (it may then ask a client that declared sampling or roots, not only elicitation).
 */
export function plainToolCall(req: IncomingMessage, outcome: InboundClassificationOutcome, asks: (tool: string) => boolean = () => false): PlainCall | undefined {
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
  const { message, classification } = outcome;
  if (message.method !== 'tools/call' || classification.revision !== REVISION) return undefined;
  const call = plainCallParams(message.id, message.params);
  if (!call || !PLAIN_NAME.test(call.name)) return undefined;
  // The classifier proved the envelope; these are what the handler would do differently.
  const meta = call.meta;
  if (!meta || acceptsTasks(meta) || mayAsk(meta[CAPABILITIES] as Record<string, unknown> | undefined, asks(call.name))) return undefined;
  // The standard headers as the SDK requires them: all present, Mcp-Name the tool's name as is.
  const h = req.headers;
  if (typeof h['mcp-protocol-version'] !== 'string' || typeof h['mcp-method'] !== 'string' || h['mcp-name'] !== call.name) return undefined;
  return call;
}

/** Answers plain calls for one catalogue; the methods of each toolsets selection are made once. */
export class DirectToolCalls {
  private readonly methods = new Map<string, McpMethods>();
  private readonly known: Set<string>;

  constructor(private readonly catalog: McpCatalog) {
    this.known = new Set(catalog.registry.toolsets());
  }

  /** Whether a tool has questions of its own for the client (registry `inputs`). */
  asks(tool: string): boolean {
    return this.catalog.registry.get(tool)?.inputs !== undefined;
  }

  /** The methods seeing `toolsets` (the known ones among them, as the SDK path's server sees). */
  private methodsFor(toolsets: string[]): McpMethods {
    const key = toolsets.join(',');
    let m = this.methods.get(key);
    if (!m) {
      m = mcpMethods(this.catalog, knownSelection(toolsets, this.known));
      if (this.methods.size < KEPT_SELECTIONS) this.methods.set(key, m);
    }
    return m;
  }

  async answer(res: ServerResponse, call: PlainCall, toolsets: string[], credentials: Credentials): Promise<void> {
    // A client that hangs up aborts the call, as the SDK's request signal would (a tool may stop its work).
    const abort = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.once('close', onClose);
    let message: { error?: { code: number } };
    try {
      const result = await this.methodsFor(toolsets).callTool(call.name, call.args, call.meta, credentials, { signal: abort.signal });
      message = { result: encodeResult(result), jsonrpc: '2.0', id: call.id } as object;
    } catch (err) {
      message = failure(err, call.id);
    }
    res.off('close', onClose);
    if (abort.signal.aborted || res.destroyed) return;
    // A method error is sent with 200, except a missing client capability: the revision makes that one 400 (as the SDK).
    sendJsonText(res, message.error?.code === MISSING_CLIENT_CAPABILITY ? 400 : 200, JSON.stringify(message), undefined, 'application/json');
  }
}

/**
 * The SDK's encode steps for a tools/call result: `resultType` when absent, then the server's identity in `_meta`.
 * The result is this call's own object, so it is completed in place (keys land where the SDK's copies put them).
 */
function encodeResult(result: CallToolResult | Record<string, unknown>): Record<string, unknown> {
  const out = result as Record<string, unknown>;
  if (out.resultType === undefined) out.resultType = 'complete';
  const meta = out._meta;
  if (meta === undefined) out._meta = { [SERVER_INFO_META_KEY]: SERVER_INFO };
  else if (isPlainObject(meta) && meta[SERVER_INFO_META_KEY] === undefined) out._meta = { ...meta, [SERVER_INFO_META_KEY]: SERVER_INFO };
  return out;
}

/** A thrown error as the SDK answers it: a question for the person as an input round, else a JSON-RPC error. */
function failure(err: unknown, id: string | number): object {
  if (!(err instanceof NeedsInput)) return callError(err, id, true);
  const asked = inputRequired({ inputRequests: err.requests as InputRequests }) as unknown as Record<string, unknown>;
  return { result: encodeResult(asked), jsonrpc: '2.0', id };
}
