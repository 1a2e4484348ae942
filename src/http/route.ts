// A REST route is plain data: method + path → registry tool, with how to build the input and how to send the
// result. rest/*.ts hold the tables; src/http/mount.ts is the only code that serves them.
import type { Tool } from '../registry/types.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** The parts of a request a route may build its tool input from. */
export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** A route whose tool is named by a path parameter, limited to tools the predicate admits (else 404). */
export interface DynamicTool {
  param: string;
  admits: (tool: Tool) => boolean;
}

export interface Route {
  method: Method;
  /** OpenAPI-style path, e.g. `/agents/{handle}`. */
  path: string;
  tool: string | DynamicTool;
  /** Success status (default 200). */
  status?: number;
  /** A success status that depends on the result (a dev task's quote orders nothing: 200 on a 202 route); else `status`. */
  statusOf?: (result: unknown) => number | undefined;
  /**
   * How the input is built. Default: query, then body fields, then path parameters (path wins).
   * `body` = the body plus path parameters; a function builds it from the request parts.
   */
  input?: 'merge' | 'body' | ((parts: RequestParts) => unknown);
  /**
   * Query parameters the spec names differently from the tool's field (`{ q: 'query' }`): the parameter is
   * read into the field (it wins when both are sent) and is what /openapi.json documents.
   */
  queryAliases?: Record<string, string>;
  /** The route can be paid (X-API-Key or x402) although its tool is not itself paid: the batch. */
  payable?: boolean;
  /** When set, a client preferring text/html gets this rendering of the result instead of JSON. */
  html?: (result: unknown) => string;
  summary?: string;
  /**
   * The route also takes a non-JSON body as raw bytes (the call's upload, its type from Content-Type), with
   * the other fields in the query string.
   */
  upload?: boolean;
  /** Hidden from /openapi.json (internal aliases). */
  hidden?: boolean;
}

export const route = (method: Method, path: string, tool: string | DynamicTool, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  tool,
  ...extra,
});
