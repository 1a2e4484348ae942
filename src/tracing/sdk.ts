// The OpenTelemetry side of tracing (docs/decisions/tracing.md), loaded by start.ts only when an OTLP endpoint is
// configured. It registers nothing globally: the provider, the propagator and the async-local context manager are
// this module's own, and every span is started with an explicit parent, so several gateways in one process (tests)
// and other OpenTelemetry users in it do not see each other.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, isSpanContextValid, trace, type Context, type Link, type Span, type SpanContext } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler } from '@opentelemetry/sdk-trace';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { TracingSettings } from './config.js';
import type { GatewayTracing, HttpSpan, SpanAttributes } from './state.js';

/** Methods named as they are; anything else is `_OTHER` (semantic conventions), so a client cannot mint span names. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);
/** Work enqueued in this process whose run has not started yet: the span to link it to, oldest dropped first. */
const MAX_PENDING_WORK = 10_000;

function samplerOf(s: TracingSettings): Sampler {
  switch (s.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(s.samplerRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(s.samplerRatio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The `code` of a thrown GatewayError or EgressError, else its class name: never its message. */
const errorType = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return err instanceof Error ? err.name : 'error';
};

/** Client errors (a GatewayError under 500) are outcomes the caller caused, not failures of the span. */
const isFailure = (err: unknown): boolean => {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status !== 'number' || status >= 500;
};

export function createTracing(settings: TracingSettings, version: string): GatewayTracing {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();
  const processor = new BatchSpanProcessor({
    exporter: new OTLPTraceExporter({ url: settings.url!, headers: settings.headers }),
    scheduledDelayMillis: settings.scheduleDelayMs,
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: version }),
    sampler: samplerOf(settings),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('agent-gateway', version);
  const pendingWork = new Map<string, SpanContext>();

  const finish = (span: Span, err: unknown): void => {
    span.setAttribute('gateway.outcome', 'error');
    span.setAttribute(ATTR_ERROR_TYPE, errorType(err));
    if (isFailure(err)) span.setStatus({ code: SpanStatusCode.ERROR });
  };

  /** Runs `fn` as `span`'s context, ending the span with its outcome. */
  const runIn = async <T>(span: Span, parent: Context, fn: () => Promise<T>, after?: (result: T) => SpanAttributes | undefined): Promise<T> => {
    try {
      const result = await contextManager.with(trace.setSpan(parent, span), fn);
      span.setAttribute('gateway.outcome', 'ok');
      const more = after?.(result);
      if (more) span.setAttributes(more);
      return result;
    } catch (err) {
      finish(span, err);
      throw err;
    } finally {
      span.end();
    }
  };

  const inSpan: GatewayTracing['inSpan'] = (name, kind, attributes, fn, after) => {
    const parent = contextManager.active();
    const span = tracer.startSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, parent);
    return runIn(span, parent, fn, after);
  };

  return {
    httpRequest(req: IncomingMessage, res: ServerResponse, requestId: string): HttpSpan {
      const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const method = KNOWN_METHODS.has(req.method ?? '') ? req.method! : '_OTHER';
      const span = tracer.startSpan(
        method === '_OTHER' ? 'HTTP' : method,
        { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_SCHEME]: 'http', 'gateway.request_id': requestId } },
        parent,
      );
      const ctx = trace.setSpan(parent, span);
      res.once('close', () => {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (res.statusCode >= 500) {
          span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
          span.setStatus({ code: SpanStatusCode.ERROR });
        } else if (!res.writableFinished) span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
        span.end();
      });
      return {
        route(template) {
          span.updateName(`${method === '_OTHER' ? 'HTTP' : method} ${template}`);
          span.setAttribute(ATTR_HTTP_ROUTE, template);
        },
        run: (fn) => contextManager.with(ctx, fn),
      };
    },

    inSpan,

    mcpRequest(method, target, meta, fn) {
      const active = contextManager.active();
      const fromMeta = meta ? propagator.extract(ROOT_CONTEXT, meta, defaultTextMapGetter) : undefined;
      const metaSpan = fromMeta ? trace.getSpanContext(fromMeta) : undefined;
      const useMeta = metaSpan !== undefined && isSpanContextValid(metaSpan);
      const transportSpan = trace.getSpanContext(active);
      // The _meta context wins; the HTTP span the request came on (another trace, or the same) stays reachable by a link.
      const links: Link[] = useMeta && transportSpan && isSpanContextValid(transportSpan) ? [{ context: transportSpan, attributes: { 'gateway.link': 'transport' } }] : [];
      const parent = useMeta ? fromMeta! : active;
      const attributes: SpanAttributes = { 'mcp.method.name': method, 'gateway.trace_parent_from': useMeta ? '_meta' : transportSpan ? 'transport' : 'none' };
      if (target) attributes['gen_ai.tool.name'] = target;
      const span = tracer.startSpan(target ? `${method} ${target}` : method, { kind: SpanKind.SERVER, attributes, links }, parent);
      return runIn(span, parent, fn);
    },

    db(system, operation, size, fn) {
      const attributes: SpanAttributes = { 'db.system.name': system, 'db.system': system, 'db.operation.name': operation };
      if (size !== undefined) attributes['db.operation.batch.size'] = size;
      return inSpan(`db.${operation}`, 'client', attributes, fn);
    },

    egress(method, url, fn) {
      let u: URL | undefined;
      try {
        u = typeof url === 'string' ? new URL(url) : url;
      } catch {
        u = undefined;
      }
      const m = KNOWN_METHODS.has(method.toUpperCase()) ? method.toUpperCase() : '_OTHER';
      const attributes: SpanAttributes = { [ATTR_HTTP_REQUEST_METHOD]: m };
      // Host and port only: the path and query may hold capability tokens, the userinfo a password.
      if (u) {
        attributes[ATTR_SERVER_ADDRESS] = u.hostname;
        attributes[ATTR_URL_SCHEME] = u.protocol.replace(/:$/, '');
        attributes[ATTR_SERVER_PORT] = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
      }
      return inSpan(`egress ${m}${u ? ` ${u.hostname}` : ''}`, 'client', attributes, fn, (r) => ({ [ATTR_HTTP_RESPONSE_STATUS_CODE]: r.status, 'gateway.egress.redirects': r.redirects.length }));
    },

    noteWork(kind, ref) {
      const sc = trace.getSpanContext(contextManager.active());
      if (!sc || !isSpanContextValid(sc)) return;
      const key = `${kind}\u0000${ref}`;
      pendingWork.delete(key);
      pendingWork.set(key, sc);
      if (pendingWork.size > MAX_PENDING_WORK) pendingWork.delete(pendingWork.keys().next().value!);
    },

    async workRun(kind, ref, attempt, fn) {
      const key = `${kind}\u0000${ref}`;
      const from = pendingWork.get(key);
      const span = tracer.startSpan(
        `work ${kind}`,
        { kind: SpanKind.CONSUMER, root: true, attributes: { 'gateway.work.kind': kind, 'gateway.work.attempt': attempt }, links: from ? [{ context: from, attributes: { 'gateway.link': 'enqueued_by' } }] : [] },
        ROOT_CONTEXT,
      );
      const result = await runIn(span, ROOT_CONTEXT, fn);
      // A failed run keeps its link for the retry; a finished one (or a recurring one's first run) lets it go.
      pendingWork.delete(key);
      return result;
    },

    forceFlush: () => provider.forceFlush(),

    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        contextManager.disable();
        pendingWork.clear();
      }
    },
  };
}
