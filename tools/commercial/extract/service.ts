// What an extraction order's work does (the order engine's producer for `extract`, named in catalog.ts): fetch a
// URL source, run the engines on their thread, then the model when one is configured; meter the tokens read and
// used. Apart from tool.ts, which runs the order work in the request: the catalog must not import the work.
import { meteredPrice } from '../../../src/commerce/prices.js';
import { GatewayError, validationError } from '../../../src/errors.js';
import type { WorkerContext } from '../../../src/registry/types.js';
import type * as store from '../../../src/store/orders.js';
import type { ServiceDef } from '../services.js';
import { fetchSource } from './fetch.js';
import { TIME_BUDGET_MS, tokensOf } from './limits.js';
import { extractWithModel } from './model.js';
import { runEngineOffLoop } from './off-loop.js';
import { parseSchema } from './schema.js';

export const EXTRACT_SERVICE = 'extract';
export const PRICE_ID = 'extract.per_1k_tokens';

interface StoredInput {
  source: string;
  source_type: 'text' | 'url' | 'html';
  schema: Record<string, unknown>;
}

/** Why an extraction run in its request failed, for its answer (the order keeps only the message). */
const failures = new WeakMap<object, { error?: GatewayError }>();

/** Keeps the GatewayError an extraction run with this context fails with (its status is the request's answer). */
export function watchFailures(ctx: object): { error?: GatewayError } {
  const seen: { error?: GatewayError } = {};
  failures.set(ctx, seen);
  return seen;
}

async function produce(o: store.OrderRow, ctx: WorkerContext) {
  try {
    const input = JSON.parse(o.input) as StoredInput;
    const parsed = parseSchema(input.schema);
    if ('issues' in parsed) throw validationError(parsed.issues);
    const fields = parsed.fields;
    const signal = AbortSignal.timeout(TIME_BUDGET_MS);
    const fetched = input.source_type === 'url' ? await fetchSource(ctx.services.egress, input.source, ctx.clock.now(), signal) : undefined;
    const kind = fetched ? fetched.kind : input.source_type === 'html' ? 'html' : 'text';
    const engine = await runEngineOffLoop({ kind, body: fetched ? fetched.body : input.source, fields, ...(fetched ? { url: fetched.finalUrl } : {}) });
    const llm = ctx.config.llm;
    const model = llm?.model ? await extractWithModel(llm, fields, engine.text, engine, signal) : undefined;
    const sourceTokens = tokensOf(engine.chars);
    const modelUsage = model?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const total = sourceTokens + modelUsage.total_tokens;
    const made = model ?? engine;
    return {
      result: {
        data: made.data,
        missing: made.missing,
        sources: made.sources,
        engine: model ? 'model' : 'rules',
        ...(model?.dropped.length ? { dropped: model.dropped } : {}),
        source: {
          type: input.source_type,
          ...(fetched ? { url: input.source, final_url: fetched.finalUrl, content_type: fetched.contentType } : {}),
          chars: engine.chars,
          truncated: engine.truncated || (fetched?.truncated ?? false),
        },
        tokens: { source: sourceTokens, model: modelUsage.total_tokens, total },
      },
      usage: { prompt_tokens: sourceTokens + modelUsage.prompt_tokens, completion_tokens: modelUsage.completion_tokens, total_tokens: total },
      charge: meteredPrice(ctx.config.commercial.prices[PRICE_ID], total),
    };
  } catch (err) {
    const seen = failures.get(ctx);
    if (seen && err instanceof GatewayError) seen.error = err;
    throw err;
  }
}

export const extractService: ServiceDef = { service: EXTRACT_SERVICE, produce };

