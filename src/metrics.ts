// Prometheus metrics (GET /metrics): per-tool calls, errors and latency, plus process defaults.
// A call adds to plain numbers kept per tool; they reach prom-client only when /metrics is read. prom-client's own
// labelled children hash their label set on every `inc` and `observe`, which cost a busy gateway several per cent
// of its requests (docs/decisions/request-budget.md).
import client from 'prom-client';
import type { Registry } from './registry/registry.js';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** One tool's counts since the gateway started. */
interface ToolCounts {
  /** Calls by transport: [ok, error]. */
  readonly calls: Map<string, [number, number]>;
  /** Failed calls by error code. */
  readonly errors: Map<string, number>;
  /** Calls per latency bucket (the last one above every bound), not cumulative. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

const bucketOf = (seconds: number): number => {
  let i = 0;
  while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
  return i;
};

/** The latency histogram in prom-client's exposition shape, read from the counts when /metrics is asked. */
function latencyMetric(tools: Map<string, ToolCounts>) {
  const name = 'gateway_tool_duration_seconds';
  return {
    name,
    help: 'Tool call latency in seconds.',
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    get() {
      const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
      for (const [tool, t] of tools) {
        let cumulative = 0;
        for (let i = 0; i < BUCKETS.length; i++) {
          cumulative += t.buckets[i];
          values.push({ value: cumulative, labels: { le: BUCKETS[i], tool }, metricName: `${name}_bucket` });
        }
        values.push({ value: t.count, labels: { le: '+Inf', tool }, metricName: `${name}_bucket` });
        values.push({ value: t.sum, labels: { tool }, metricName: `${name}_sum` });
        values.push({ value: t.count, labels: { tool }, metricName: `${name}_count` });
      }
      return { name, help: this.help, type: this.type, aggregator: this.aggregator, values };
    },
    reset() {
      tools.clear();
    },
  };
}

export function createMetrics(registry: Registry): client.Registry {
  const reg = new client.Registry();
  client.collectDefaultMetrics({ register: reg });
  const tools = new Map<string, ToolCounts>();
  new client.Counter({
    name: 'gateway_tool_calls_total',
    help: 'Tool calls by tool, transport and outcome.',
    labelNames: ['tool', 'transport', 'outcome'] as const,
    registers: [reg],
    collect() {
      this.reset();
      for (const [tool, t] of tools) {
        for (const [transport, [ok, error]] of t.calls) {
          if (ok > 0) this.inc({ tool, transport, outcome: 'ok' }, ok);
          if (error > 0) this.inc({ tool, transport, outcome: 'error' }, error);
        }
      }
    },
  });
  new client.Counter({
    name: 'gateway_tool_errors_total',
    help: 'Failed tool calls by tool and error code.',
    labelNames: ['tool', 'code'] as const,
    registers: [reg],
    collect() {
      this.reset();
      for (const [tool, t] of tools) for (const [code, n] of t.errors) this.inc({ tool, code }, n);
    },
  });
  reg.registerMetric(latencyMetric(tools) as unknown as client.Metric);
  registry.onCall((e) => {
    let t = tools.get(e.tool.name);
    if (!t) tools.set(e.tool.name, (t = { calls: new Map(), errors: new Map(), buckets: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    const transport = e.caller.credentials.transport;
    let c = t.calls.get(transport);
    if (!c) t.calls.set(transport, (c = [0, 0]));
    c[e.ok ? 0 : 1]++;
    if (!e.ok) {
      const code = e.code ?? 'unknown';
      t.errors.set(code, (t.errors.get(code) ?? 0) + 1);
    }
    const seconds = e.ms / 1000;
    t.buckets[bucketOf(seconds)]++;
    t.sum += seconds;
    t.count++;
  });
  return reg;
}
