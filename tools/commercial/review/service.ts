// What a code review order's work does (the order engine's producers for `review` and `code_review`, named in
// catalog.ts): run the engines within the time budget. `review` is $25 a review; `code_review` is metered on the
// code's tokens. Apart from tool.ts, which runs the order work in the request: the catalog must not import the work.
import { meteredPrice } from '../../../src/commerce/prices.js';
import { GatewayError } from '../../../src/errors.js';
import type { WorkerContext } from '../../../src/registry/types.js';
import type * as store from '../../../src/store/orders.js';
import type { ServiceDef } from '../services.js';
import type { ReviewInput } from './engine.js';
import { reviewOffLoop } from './off-loop.js';
import { foldAndSort, type Focus } from './findings.js';
import { TIME_BUDGET_MS, tokensOf } from './limits.js';
import { reviewWithModel } from './model.js';

export const REVIEW_SERVICE = 'review';
export const METERED_SERVICE = 'code_review';
export const METERED_PRICE_ID = 'code_review.per_1k_tokens';

interface StoredInput {
  code: string;
  language?: string;
  filename?: string;
  focus?: Focus | Focus[];
}

async function analyse(o: store.OrderRow, ctx: WorkerContext) {
  const input = JSON.parse(o.input) as StoredInput;
  const focus = input.focus === undefined ? undefined : Array.isArray(input.focus) ? input.focus : [input.focus];
  const req: ReviewInput = { code: input.code, ...(input.language ? { language: input.language } : {}), ...(input.filename ? { filename: input.filename } : {}), ...(focus ? { focus } : {}) };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatewayError('unavailable', `The review took longer than ${TIME_BUDGET_MS / 1000} s.`)), TIME_BUDGET_MS);
  });
  try {
    const r = await Promise.race([reviewOffLoop(req), late]);
    const llm = ctx.config.llm;
    const model = llm?.model && r.supported ? await Promise.race([reviewWithModel(llm, input.code, r.language, r.findings, focus, AbortSignal.timeout(TIME_BUDGET_MS)), late]) : undefined;
    if (model) {
      r.engines.push('model');
      r.findings = foldAndSort([...r.findings, ...model.findings]);
      if (model.note) r.notes.push(model.note);
    }
    const code = tokensOf(input.code.length);
    const modelTokens = model?.usage.total_tokens ?? 0;
    const counts = Object.fromEntries(['critical', 'high', 'medium', 'low', 'info'].map((s) => [s, r.findings.filter((f) => f.severity === s).length]));
    return {
      result: {
        ...r,
        ...(focus ? { focus } : {}),
        summary: { findings: r.findings.length, ...counts },
        ...(model ? { model: { findings: model.findings.length, folded: model.folded, dropped: model.dropped } } : {}),
        lines: input.code.split('\n').length,
        tokens: { code, model: modelTokens, total: code + modelTokens },
      },
      usage: { prompt_tokens: code + (model?.usage.prompt_tokens ?? 0), completion_tokens: model?.usage.completion_tokens ?? 0, total_tokens: code + modelTokens },
    };
  } finally {
    clearTimeout(timer);
  }
}

export const reviewService: ServiceDef = {
  service: REVIEW_SERVICE,
  async produce(o: store.OrderRow, ctx: WorkerContext) {
    const { result, usage } = await analyse(o, ctx);
    return { result, usage };
  },
};

export const meteredReviewService: ServiceDef = {
  service: METERED_SERVICE,
  async produce(o: store.OrderRow, ctx: WorkerContext) {
    const { result, usage } = await analyse(o, ctx);
    return { result, usage, charge: meteredPrice(ctx.config.commercial.prices[METERED_PRICE_ID], usage.total_tokens) };
  },
};
