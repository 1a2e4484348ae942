// The SDK's classification of a plain 2026-07-28 tools/call, remembered per envelope. For a body of exactly the
// shape `{ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments?, _meta } }` (no other keys, an id
// that is a string or an integer, `_meta` without a progress token or related task), the SDK's classifier
// (classifyInboundRequest) decides from three things only: the `_meta` envelope, the MCP-Protocol-Version header
// and the Mcp-Method header. The JSON-RPC shape checks pass for any such body, the response checks fail for it, and
// classifyRequestBody reads nothing else. So once the SDK has classified an envelope and header pair as a modern
// request, a later body of that shape with the same envelope (the same JSON) and headers gets the same outcome
// without the classifier's zod parses, two of which fail by design and build errors: about a tenth of a call
// (docs/decisions/request-budget.md, "Round three"). Everything else is classified by the SDK each time.
import type { IncomingMessage } from 'node:http';
import type { InboundClassificationOutcome } from '@modelcontextprotocol/server';
import { isPlainObject } from '../plain-object.js';
import { plainCallParams } from './plain-call.js';

/** Envelopes remembered at most; the memo starts over when full (clients send a handful of distinct envelopes). */
export const ENVELOPES_KEPT = 256;
const BODY_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

type ModernRequest = Extract<InboundClassificationOutcome, { kind: 'modern' }>;

/** The memo's key for a body of the plain shape (its params as plainCallParams takes them, with an envelope), or undefined. */
function keyOf(req: IncomingMessage, body: unknown): string | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  for (const k in body) if (!BODY_KEYS.has(k)) return undefined;
  const id = body.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const meta = plainCallParams(id as string | number, body.params)?.meta;
  if (meta === undefined) return undefined;
  const version = req.headers['mcp-protocol-version'];
  const method = req.headers['mcp-method'];
  if (typeof version !== 'string' || typeof method !== 'string') return undefined;
  return `${version}\n${method}\n${JSON.stringify(meta)}`;
}

export class EnvelopeMemo {
  private readonly known = new Map<string, ModernRequest['classification']>();

  /** The SDK's outcome for this request: remembered, or from `classify` (and remembered when it is a modern request). */
  classify(req: IncomingMessage, body: unknown, classify: () => InboundClassificationOutcome): InboundClassificationOutcome {
    const key = keyOf(req, body);
    if (key !== undefined) {
      const classification = this.known.get(key);
      if (classification) return { kind: 'modern', messageKind: 'request', message: body as ModernRequest['message'], classification } as ModernRequest;
    }
    const outcome = classify();
    if (key !== undefined && outcome.kind === 'modern' && outcome.messageKind === 'request') {
      if (this.known.size >= ENVELOPES_KEPT) this.known.clear();
      this.known.set(key, outcome.classification);
    }
    return outcome;
  }

  get size(): number {
    return this.known.size;
  }
}
