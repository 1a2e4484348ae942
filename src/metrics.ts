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
  registry.onCall((e) => {
    calls.inc({ tool: e.tool.name, transport: e.caller.credentials.transport, outcome: e.ok ? 'ok' : 'error' });
    if (!e.ok) errors.inc({ tool: e.tool.name, code: e.code ?? 'unknown' });
    latency.observe({ tool: e.tool.name }, e.ms / 1000);
  });
  return reg;
}
