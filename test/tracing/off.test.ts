// Tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT) costs nothing: no OpenTelemetry module is loaded, in this process or
// in the built entry, nothing is exported, and the hooks on the request path see no tracer.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';
import { tracing } from '../../src/tracing/state.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

// A probe per package: the factory runs only if something imports it.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('@opentelemetry/api', () => (loaded.push('api'), {}));
vi.mock('@opentelemetry/sdk-trace', () => (loaded.push('sdk-trace'), {}));
vi.mock('@opentelemetry/context-async-hooks', () => (loaded.push('context-async-hooks'), {}));
vi.mock('@opentelemetry/exporter-trace-otlp-http', () => (loaded.push('exporter-trace-otlp-http'), {}));
vi.mock('@opentelemetry/core', () => (loaded.push('core'), {}));
vi.mock('@opentelemetry/resources', () => (loaded.push('resources'), {}));

let rx: OtlpReceiver;
let gw: TestGateway;

beforeAll(async () => {
  rx = await startOtlpReceiver();
  // The receiver is there, but nothing names it: tracing stays off.
  gw = await startGateway({ env: { OTEL_BSP_SCHEDULE_DELAY: '50' } });
});
afterAll(async () => {
  await gw?.cleanup();
  await rx?.close();
});

describe('tracing off', () => {
  it('serves traced-looking requests without loading OpenTelemetry or exporting anything', async () => {
    expect(gw.gateway.config.tracing.url).toBeNull();
    const a = await register(gw.url, 'untraced');
    const tp = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
    expect((await api(gw.url, 'GET', '/agents/untraced', { headers: { traceparent: tp } })).status).toBe(200);
    expect((await api(gw.url, 'POST', '/jobs', { body: { type: 'delay', seconds: 1 }, secret: a.secret, headers: { traceparent: tp } })).status).toBe(202);
    gw.clock.advance(2000);
    await gw.gateway.registry.services.scheduler.runDue();
    // The hooks in the HTTP front, registry, store, egress and scheduler read this and found nothing.
    expect(tracing).toBeNull();
    expect(loaded).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.requests).toEqual([]);
  });
});

describe('the built entry', () => {
  const run = async (env: Record<string, string>): Promise<string[]> => {
    const dir = tempDir('gw-otel-probe-');
    const probe = path.join(dir, 'probe.txt');
    fs.writeFileSync(probe, '');
    const client = new Client({ name: 'probe', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', path.join(import.meta.dirname, 'probe-register.mjs'), MAIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', OTEL_PROBE_FILE: probe, ...env },
        stderr: 'pipe',
      }),
    );
    try {
      const r = await client.callTool({ name: 'uuid', arguments: { count: 1 }, _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01' } });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const seen = fs.readFileSync(probe, 'utf8').split('\n').filter(Boolean);
    fs.rmSync(dir, { recursive: true, force: true });
    return seen;
  };

  it('loads no @opentelemetry package without the variable, and loads the SDK with it', async () => {
    expect(await run({})).toEqual([]);
    // The probe works: the same call with an endpoint loads the SDK (dynamically, on start-up).
    const on = await run({ OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint });
    expect(on).toEqual(expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace', '@opentelemetry/context-async-hooks', '@opentelemetry/exporter-trace-otlp-http']));
  });
});
