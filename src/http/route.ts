// A REST route is plain data: method + path → registry tool, with how to build the input and how to send the
// result. rest/*.ts hold the tables; src/http/mount.ts is the only code that knows the HTTP framework.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** The parts of a request a route may build its tool input from. */
export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface Route {
  method: Method;
  /** OpenAPI-style path, e.g. `/agents/{handle}`. */
  path: string;
  tool: string;
  /** Success status (default 200). */
  status?: number;
  /**
   * How the input is built. Default: query, then body fields, then path parameters (path wins).
   * `body` = the whole body is the input (plus path parameters).
   */
  input?: 'merge' | 'body' | ((parts: RequestParts) => unknown);
  /** `json` (default), `file` (attachment from a FileResult) or `html`/`negotiate` for pages. */
  response?: 'json' | 'file' | 'negotiate';
  summary?: string;
  /** Hidden from /openapi.json (internal aliases). */
  hidden?: boolean;
}

export const route = (method: Method, path: string, tool: string, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  tool,
  ...extra,
});
