// Runs tools through a real Registry pipeline (validation, errors) without HTTP, for unit tests of
// tools that need no database.
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { GatewayError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { Registry } from '../../src/registry/registry.js';
import { createEgress } from '../../src/egress/index.js';
import type { Tool } from '../../src/registry/types.js';

export function pureRegistry(tools: Tool[], clock = new ManualClock(Date.parse('2026-11-22T00:00:00Z'))): Registry {
  const registry: Registry = new Registry({
    resolveAgent: async () => null,
    base: {
      db: undefined as never,
      clock,
      config: loadConfig({ GATEWAY_DATA_DIR: '/tmp/unused' }),
      log: createLogger('silent'),
      services: { clientKey: (ip: string) => ip, forgetAgent: () => undefined, listTools: () => registry.list(), egress: createEgress() } as never,
    },
  });
  registry.add(...tools);
  // Paid tools run free here: billing has its own tests.
  registry.setChargeStep({ begin: async () => ({ commit: async () => undefined, release: async () => undefined }) });
  return registry;
}

/** Calls a tool; resolves with its result or rejects with the GatewayError. */
export async function callTool(registry: Registry, name: string, input: unknown): Promise<any> {
  const out = await registry.call(name, input, { ip: '127.0.0.1', transport: 'internal' });
  return out.result;
}

/** Calls a tool expecting failure; returns the GatewayError. */
export async function callToolError(registry: Registry, name: string, input: unknown): Promise<GatewayError> {
  try {
    await callTool(registry, name, input);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error(`expected ${name} to fail for ${JSON.stringify(input)}`);
}
