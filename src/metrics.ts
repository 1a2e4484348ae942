// Prometheus metrics (GET /metrics): per-tool calls, errors and latency, plus process defaults.
import client from 'prom-client';
import type { Registry } from './registry/registry.js';

export function createMetrics(registry: Registry): client.Registry {
  const reg = new client.Registry();
  client.collectDefaultMetrics({ register: reg });
  const calls = new client.Counter({
    name: 'gateway_tool_calls_total',
    help: 'Tool calls by tool, transport and outcome.',
    labelNames: ['tool', 'transport', 'outcome'] as const,
    registers: [reg],
  });
  const errors = new client.Counter({
    name: 'gateway_tool_errors_total',
    help: 'Failed tool calls by tool and error code.',
    labelNames: ['tool', 'code'] as const,
    registers: [reg],
  });
  const latency = new client.Histogram({
    name: 'gateway_tool_duration_seconds',
    help: 'Tool call latency in seconds.',
    labelNames: ['tool'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [reg],
  });
  // Labelled children are kept: looking one up by its labels on every call cost more than the counting.
  const children = new Map<string, { calls: client.Counter.Internal; latency: client.Histogram.Internal<'tool'> }>();
  registry.onCall((e) => {
    const outcome = e.ok ? 'ok' : 'error';
    const k = `${e.tool.name}|${e.caller.credentials.transport}|${outcome}`;
    let c = children.get(k);
    if (!c) children.set(k, (c = { calls: calls.labels(e.tool.name, e.caller.credentials.transport, outcome), latency: latency.labels(e.tool.name) }));
    c.calls.inc();
    if (!e.ok) errors.inc({ tool: e.tool.name, code: e.code ?? 'unknown' });
    c.latency.observe(e.ms / 1000);
  });
  return reg;
}
