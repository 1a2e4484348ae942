// The 2025-era MCP server (SDK v1) with malformed request params answered as the revision says: -32602 Invalid
// params, with a readable message. The SDK parses a request's params in the wrapper it puts around every handler and
// lets the validation error through as -32603 Internal error carrying zod's raw issue dump ("initialize" without
// params, string "arguments", a bad "prompts/get", "completion/complete" or "resources/subscribe").
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;
interface Issue {
  path?: PropertyKey[];
  message?: string;
}

const isValidationError = (err: unknown): err is { issues: Issue[] } => Array.isArray((err as { issues?: unknown } | null)?.issues);

/** "params.arguments: expected record, received string" for each issue, at most three. */
export const describeIssues = (issues: Issue[]): string =>
  issues
    .slice(0, 3)
    .map((i) => `${(i.path ?? []).map(String).join('.') || 'params'}: ${(i.message ?? 'invalid').replace(/^Invalid input: /, '')}`)
    .join('; ');

export class ParamsCheckedServer extends Server {
  override setRequestHandler(...args: Parameters<Server['setRequestHandler']>): void {
    super.setRequestHandler(...args);
    // The handler the SDK just stored (keyed by its method) is wrapped; the SDK keeps it in a private map.
    const handlers = (this as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
    for (const [method, handler] of handlers) {
      if ((handler as { checked?: true }).checked) continue;
      const checked: Handler = async (request, extra) => {
        try {
          return await handler(request, extra);
        } catch (err) {
          if (!isValidationError(err)) throw err;
          // The bare message on the wire, as every other 2025-era error (server.ts's v1): the client prefixes it.
          const message = `Invalid params for ${method}: ${describeIssues(err.issues)}`;
          throw Object.assign(new McpError(ErrorCode.InvalidParams, message), { message });
        }
      };
      handlers.set(method, Object.assign(checked, { checked: true as const }));
    }
  }
}
