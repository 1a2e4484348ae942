// The process's tracing, or null while it is off (docs/decisions/tracing.md). Hooks on the request path read
// `tracing` and do nothing more when it is null: no OpenTelemetry module is loaded and no async-local storage is
// enabled until start.ts turns tracing on. Only types are imported here, so loading this module costs nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type SpanAttributes = Record<string, string | number | boolean>;

/** The server span of one HTTP request. */
export interface HttpSpan {
  /** Names the span after the matched route template (never the raw path). */
  route(template: string): void;
  /** Runs the request's handler with the span as the active context. */
  run<T>(fn: () => T): T;
}

export interface GatewayTracing {
  /** Starts the server span of a request, continuing its `traceparent`/`tracestate`; it ends when the response closes. */
  httpRequest(req: IncomingMessage, res: ServerResponse, requestId: string): HttpSpan;
  /**
   * A child span of the active context around `fn`. Its outcome is `ok`, or `error` with `error.type` set to the
   * thrown error's `code`; `after` may add attributes from the result.
   */
  inSpan<T>(name: string, kind: 'internal' | 'client', attributes: SpanAttributes, fn: () => Promise<T>, after?: (result: T) => SpanAttributes | undefined): Promise<T>;
  /**
   * The server span of an MCP request: its parent is the `traceparent` in the request's `_meta` when there is a
   * valid one (linked to the HTTP span it arrived on), else the active context (the HTTP request's span).
   */
  mcpRequest<T>(method: string, target: string | undefined, meta: Record<string, unknown> | undefined, fn: () => Promise<T>): Promise<T>;
  /** A store transaction or batch, as a child span of the active context. */
  db<T>(system: 'sqlite' | 'postgresql', operation: 'transaction' | 'batch', size: number | undefined, fn: () => Promise<T>): Promise<T>;
  /** An egress request: a client span named by the method and host only (no path, query or credentials). */
  egress<T extends { status: number; redirects: string[] }>(method: string, url: string | URL, fn: () => Promise<T>): Promise<T>;
  /** Remembers the active span for work enqueued now, so its run can link back to it. */
  noteWork(kind: string, ref: string): void;
  /** The span of one run of scheduled work: a new trace, linked to the span that enqueued it when this process saw it. */
  workRun<T>(kind: string, ref: string, attempt: number, fn: () => Promise<T>): Promise<T>;
  /** Sends what is buffered. */
  forceFlush(): Promise<void>;
  /** Flushes, stops exporting and switches the context storage off. */
  shutdown(): Promise<void>;
}

/** Null while tracing is off (the default). */
export let tracing: GatewayTracing | null = null;

export function setTracing(t: GatewayTracing | null): void {
  tracing = t;
}
