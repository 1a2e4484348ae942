// Turns tracing on for the process when an OTLP endpoint is configured, and off again with the last gateway that
// used it. The OpenTelemetry modules are imported here, dynamically, and only then: with tracing off nothing of
// them is loaded and no async-local storage is enabled (docs/decisions/tracing.md).
import type { TracingSettings } from './config.js';
import { setTracing, tracing, type GatewayTracing } from './state.js';

let users = 0;
let starting: Promise<GatewayTracing> | null = null;

/** The process's tracing, started on first use; null (and nothing loaded) when `settings.url` is null. */
export async function startTracing(settings: TracingSettings, version: string): Promise<GatewayTracing | null> {
  if (!settings.url) return null;
  users++;
  starting ??= import('./sdk.js').then(({ createTracing }) => {
    const t = createTracing(settings, version);
    setTracing(t);
    return t;
  });
  return starting;
}

/** Gives tracing back; the last user flushes what is buffered, and the process runs untraced again. */
export async function stopTracing(t: GatewayTracing | null): Promise<void> {
  if (t === null || --users > 0) return;
  if (tracing === t) setTracing(null);
  starting = null;
  await t.shutdown();
}
