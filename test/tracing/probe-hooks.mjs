// Module hooks for the tracing-off test: every import of an @opentelemetry package is written to OTEL_PROBE_FILE.
import fs from 'node:fs';

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/') && process.env.OTEL_PROBE_FILE) fs.appendFileSync(process.env.OTEL_PROBE_FILE, `${specifier}\n`);
  return next(specifier, context);
}
