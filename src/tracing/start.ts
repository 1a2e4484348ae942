// Turns tracing on for the process when an OTLP endpoint is configured, and off again with the last gateway that
// used it. The OpenTelemetry modules are imported here, dynamically, and only then: with tracing off nothing of
// them is loaded and no async-local storage is enabled (docs/decisions/tracing.md). They are optional packages
// (src/engines.ts): a gateway told to export without them does not start, and says what to install.
import { installCommand, missingEngine } from '../engines.js';
import type { TracingSettings } from './config.js';
import { setTracing, tracing, type GatewayTracing } from './state.js';

let users = 0;
let starting: Promise<GatewayTracing> | null = null;

/** The process's tracing, started on first use; null (and nothing loaded) when `settings.url` is null. */
export async function startTracing(settings: TracingSettings, version: string): Promise<GatewayTracing | null> {
  if (!settings.url) return null;
  const missing = missingEngine('tracing');
  if (missing.length) {
    throw new Error(
      `Tracing export is configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), and this installation of agent-gateway does not include the optional packages it needs (${missing.join(', ')}). ` +
        `Run this where agent-gateway is installed: ${installCommand('tracing')}; or unset the endpoint.`,
    );
  }
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
