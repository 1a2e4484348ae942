// POST /batch: up to 20 calls in one request, answered in call order, each with `result` or `error`.
// Paid calls are charged one quota unit each: reserved in one write up front, unused units given back.
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { GatewayError, toGatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Tool } from '../../src/registry/types.js';
import { payForBatch } from './batch-payment.js';

export const BATCH_MAX = 20;

/** Tools a batch may call: the /tools catalogue and the free toolbelt. */
export const batchable = (t: Tool): boolean => t.expose.catalog || t.toolset === 'toolbelt';

const Call = z.object({
  tool: z.string().min(1).max(64).describe('Tool name, as listed by GET /tools or GET /toolbelt.'),
  input: z.record(z.string(), z.unknown()).default({}).describe("The tool's input object."),
});

interface ItemError {
  code: string;
  message: string;
  status: number;
  detail?: unknown;
}

const errorOf = (err: unknown): ItemError => {
  const ge = toGatewayError(err);
  return { code: ge.code, message: ge.message, status: ge.status, ...(ge.detail ? { detail: ge.detail } : {}) };
};

export const batch = defineTool({
  name: 'batch',
  title: 'Batch of tool calls',
  toolset: 'tools',
  description:
    `Runs up to ${BATCH_MAX} calculator or toolbelt calls in order and returns one item per call: {tool, result, error} ` +
    'with the other field null. A failing item does not stop the rest unless stop_on_error is true; then the ' +
    'remaining items are reported with error.code "not_run". Each paid call costs 1 unit of the key\'s monthly quota ' +
    "(or is paid from the agent's credits). Without a key or credits the batch is bought as one: 402 with the x402 " +
    'challenge for the sum of its paid calls; a PAYMENT-SIGNATURE for that sum pays it, settled when at least one paid call succeeded.',
  input: z.object({
    calls: z.array(Call).min(1).max(BATCH_MAX).describe(`The calls, at most ${BATCH_MAX}.`),
    stop_on_error: z.boolean().default(false).describe('Stop at the first failing call.'),
  }),
  auth: 'public',
  annotations: { readOnlyHint: false, openWorldHint: false },
  handler: async (input, ctx) => {
    const started = performance.now();
    const tools = input.calls.map((c) => ctx.services.listTools().find((t) => t.name === c.tool && batchable(t)));
    const payment = await payForBatch(ctx, batch, tools.filter((t): t is Tool => t?.auth === 'paid'));
    const results: { tool: string; result: unknown; error: ItemError | null }[] = [];
    let stopped = false;
    try {
      for (let i = 0; i < input.calls.length; i++) {
        const call = input.calls[i];
        if (stopped) {
          results.push({ tool: call.tool, result: null, error: { code: 'not_run', message: 'Not run: an earlier call failed and stop_on_error is true.', status: 0 } });
          continue;
        }
        try {
          if (!tools[i]) throw new GatewayError('not_found', `No calculator or toolbelt tool named "${call.tool}".`);
          results.push({ tool: call.tool, result: await ctx.call(call.tool, call.input), error: null });
        } catch (err) {
          results.push({ tool: call.tool, result: null, error: errorOf(err) });
          if (input.stop_on_error) stopped = true;
        }
        ctx.progress?.(i + 1, input.calls.length, `${call.tool} ${results[i].error ? 'failed' : 'done'}`);
      }
    } catch (err) {
      await payment.abort();
      throw err;
    }
    await payment.finish();
    const failed = results.filter((r) => r.error && r.error.code !== 'not_run').length;
    return {
      results,
      count: results.length,
      succeeded: results.filter((r) => !r.error).length,
      failed,
      not_run: results.filter((r) => r.error?.code === 'not_run').length,
      server_ms: Math.round((performance.now() - started) * 1000) / 1000,
    };
  },
});
