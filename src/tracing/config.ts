// Tracing settings (docs/decisions/tracing.md), parsed with the rest of the environment by src/config.ts. The names
// are OpenTelemetry's standard ones: tracing is on only when an OTLP endpoint is set.
import { z } from 'zod';

export type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

export interface TracingSettings {
  /** Where spans are POSTed (OTLP/HTTP, JSON): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. Null: off. */
  url: string | null;
  /** Sent with every export (OTEL_EXPORTER_OTLP_HEADERS, `key=value,…`, values URL-decoded); an API key of the collector, say. */
  headers: Record<string, string>;
  serviceName: string;
  sampler: SamplerName;
  /** The ratio of the traceidratio samplers (OTEL_TRACES_SAMPLER_ARG), 0…1. */
  samplerRatio: number;
  /** How long ended spans wait to be sent in one batch (OTEL_BSP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

export const TRACING_ENV = {
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const out: Record<string, string> = {};
      for (const pair of (raw ?? '').split(',')) {
        if (pair.trim() === '') continue;
        const eq = pair.indexOf('=');
        if (eq <= 0) {
          ctx.addIssue({ code: 'custom', message: 'must be key=value pairs separated by commas' });
          return z.NEVER;
        }
        try {
          out[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim());
        } catch {
          ctx.addIssue({ code: 'custom', message: 'a key or value is not valid percent-encoding' });
          return z.NEVER;
        }
      }
      return out;
    }),
  OTEL_SERVICE_NAME: z.string().min(1).default('agent-gateway'),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(600_000).default(5000),
};

const TracingEnvSchema = z.object(TRACING_ENV);
type TracingEnv = z.output<typeof TracingEnvSchema>;

export function tracingSettings(e: TracingEnv): TracingSettings {
  const base = e.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : null);
  return {
    url,
    headers: e.OTEL_EXPORTER_OTLP_HEADERS,
    serviceName: e.OTEL_SERVICE_NAME,
    sampler: e.OTEL_TRACES_SAMPLER,
    samplerRatio: e.OTEL_TRACES_SAMPLER_ARG,
    scheduleDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
  };
}
