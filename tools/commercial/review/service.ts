// What a code review order's work does (the order engine's producers for `review` and `code_review`, named in
// catalog.ts): run the engines within the time budget, then the model when one is configured. `review` is $25 a
// review; `code_review` is metered on the code's tokens. A language the engines do not parse is reviewed only when
// a model takes it (tool.ts refuses it otherwise, before any hold), and fails, releasing the order, when the model
// cannot: a review that was not done is never charged. Apart from tool.ts, which runs the order work in the
// request: the catalog must not import the work.
import { meteredPrice } from '../../../src/commerce/prices.js';
import { requireEngine } from '../../../src/engines.js';
import { GatewayError } from '../../../src/errors.js';
import type { WorkerContext } from '../../../src/registry/types.js';
import type * as store from '../../../src/store/orders.js';
import type { Attempt, ServiceDef } from '../services.js';
import type { ReviewInput } from './engine.js';
import { reviewOffLoop } from './off-loop.js';
import { foldAndSort, type Focus } from './findings.js';
import { TIME_BUDGET_MS, tokensOf } from './limits.js';
import { reviewWithModel, type ModelReview } from './model.js';

export const REVIEW_SERVICE = 'review';
export const METERED_SERVICE = 'code_review';
export const METERED_PRICE_ID = 'code_review.per_1k_tokens';

interface StoredInput {
  code: string;
  language?: string;
  filename?: string;
  focus?: Focus | Focus[];
}

const failed = (err: unknown) => (err instanceof Error && err.message ? err.message : 'the call failed');

async function analyse(o: store.OrderRow, ctx: WorkerContext, attempt: Attempt) {
  // Here, before the thread starts: without its optional packages the thread could only crash on import. The 503
  // is not retried and fails the order, which releases its hold.
  requireEngine('review');
  const input = JSON.parse(o.input) as StoredInput;
  const focus = input.focus === undefined ? undefined : Array.isArray(input.focus) ? input.focus : [input.focus];
  const req: ReviewInput = { code: input.code, ...(input.language ? { language: input.language } : {}), ...(input.filename ? { filename: input.filename } : {}), ...(focus ? { focus } : {}) };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    // Not worth another attempt: the same code would take as long again.
    timer = setTimeout(() => reject(new GatewayError('unavailable', `The review took longer than ${TIME_BUDGET_MS / 1000} s.`, { extra: { reason: 'time_budget', retryable: false } })), TIME_BUDGET_MS);
  });
  try {
    const r = await Promise.race([reviewOffLoop(req), late]);
    const llm = ctx.config.llm;
    if (!r.supported && !llm?.model) {
      throw new GatewayError('model_not_configured', `“${r.language}” is reviewed by the operator’s model, and none is configured any more. Nothing was charged.`);
    }
    let model: ModelReview | undefined;
    if (llm?.model) {
      const asked = reviewWithModel(llm, input.code, r.language, r.findings, focus, AbortSignal.timeout(TIME_BUDGET_MS)).then((m) => ({ m }), (err: unknown) => ({ err }));
      const outcome = await Promise.race([asked, late]);
      if ('m' in outcome) model = outcome.m;
      // Tried again while attempts remain; on the last, the engines' review is delivered without the model, and a
      // review only the model could make fails (nothing charged).
      else if (!attempt.last || !r.supported) throw outcome.err;
      else r.notes.push(`The model could not review this code (${failed(outcome.err)}); the engines' findings are complete without it.`);
    }
    if (model) {
      if (r.supported) r.engines.push('model');
      else {
        r.engines.unshift('model');
        r.notes = [`“${r.language}” is not a language the engines parse: the model reviewed it, and the secret scan ran as for every language.`];
      }
      r.findings = foldAndSort([...r.findings, ...model.findings]);
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
  async produce(o: store.OrderRow, ctx: WorkerContext, attempt: Attempt) {
    const { result, usage } = await analyse(o, ctx, attempt);
    return { result, usage };
  },
};

export const meteredReviewService: ServiceDef = {
  service: METERED_SERVICE,
  async produce(o: store.OrderRow, ctx: WorkerContext, attempt: Attempt) {
    const { result, usage } = await analyse(o, ctx, attempt);
    return { result, usage, charge: meteredPrice(ctx.config.commercial.prices[METERED_PRICE_ID], usage.total_tokens) };
  },
};
