// POST /review {code, language, filename} ($25 a review) and POST /v1/code-review {code, language, focus} (metered
// per 1,000 tokens): findings with line, column, severity, rule id, message and fix. Orders made within their
// request, like /extract: held, worked, captured on delivery; a failure costs nothing.
import { z } from 'zod';
import { meteredPrice } from '../../../src/commerce/prices.js';
import { requireEngine } from '../../../src/engines.js';
import { GatewayError } from '../../../src/errors.js';
import { defineTool } from '../../../src/registry/define-tool.js';
import type { ToolContext, WorkerContext } from '../../../src/registry/types.js';
import * as store from '../../../src/store/orders.js';
import { METERED_X402, OrderExtras, placeOrder } from '../place.js';
import { orderView } from '../view.js';
import { orderKind, workInRequest } from '../work.js';
import { FOCUSES } from './findings.js';
import { LANGUAGE_LIST, languageOf, unsupportedLanguage } from './languages.js';
import { MAX_CHARS, MAX_LINES, tokensOf } from './limits.js';
import { modelTokenCap } from './model.js';
import { METERED_PRICE_ID, METERED_SERVICE, REVIEW_SERVICE } from './service.js';

const Code = z
  .string()
  .min(1)
  .max(MAX_CHARS, `code is at most ${MAX_CHARS} characters.`)
  .refine((c) => c.split('\n').length <= MAX_LINES, `code is at most ${MAX_LINES} lines.`)
  .describe(`The source to review (at most ${MAX_CHARS} characters and ${MAX_LINES} lines).`);
const LanguageField = z
  .string()
  .max(40)
  .optional()
  .describe(
    `The language: ${LANGUAGE_LIST} (or a usual alias: js, ts, py, golang, rs, rb, cs, sh, bash…); when absent, the filename’s extension names it. ` +
      'Any other language is refused with 422 unsupported_language before anything is held, unless the operator has configured a model, which then reviews it.',
  );
const Focus = z.enum(FOCUSES);
const LANGUAGES_SENTENCE = `Languages: ${LANGUAGE_LIST}; any other is refused with 422 unsupported_language (nothing held), or reviewed by the operator’s model when one is configured.`;

/**
 * The review must be doable before anything is held: its engines installed (optional packages), and a language
 * they parse or a model to take any other.
 */
function checkLanguage(ctx: ToolContext, language: string | undefined, filename: string | undefined): void {
  requireEngine('review');
  const lang = languageOf(language, filename);
  if ('known' in lang || ctx.config.llm?.model) return;
  throw unsupportedLanguage(lang.unknown, language?.trim() || !filename ? 'language' : 'filename');
}

async function runOrder(ctx: ToolContext, service: string, priceId: 'review' | typeof METERED_PRICE_ID, amount: number, input: Record<string, unknown>, webhook: string | undefined, payment: string | undefined, metered: boolean) {
  const c = ctx.config.commercial;
  const { order: o } = await placeOrder(
    ctx,
    { service, priceId, amount, input, webhookUrl: webhook, capturableForMs: 3600_000, dueInMs: orderKind.leaseMs, ...(metered ? { refuses: { x402: METERED_X402 } } : {}) },
    payment as never,
  );
  await workInRequest(ctx as WorkerContext, o.id);
  const done = (await store.orderById(ctx.db, o.id))!;
  if (done.status !== 'delivered') {
    throw new GatewayError(done.status === 'failed' ? 'upstream_error' : 'unavailable', `${done.error ?? 'The review could not be made.'} The order failed and nothing was charged.`, { extra: { order_id: o.id, status: done.status } });
  }
  const view = orderView(done, c.baseUrl);
  return { ...(view.result as Record<string, unknown>), order_id: o.id, usage: view.usage, charged: { usd: view.payment.charged_usd, micro_usd: view.payment.charged_micro_usd } };
}

export const codeReview = defineTool({
  name: 'code_review',
  title: 'Review code ($25)',
  toolset: 'commercial',
  description:
    'Reviews one file and answers with findings (line, column, severity, rule id, message, fix, and a patch where the engine offers one): ESLint with its security rules for JavaScript/TypeScript, ' +
    'parser-based rules for Python, Go, Java, Rust, Ruby, PHP, C# and shell, and a secret scan for every language. $25 a review, charged on delivery; a failure costs nothing. ' +
    LANGUAGES_SENTENCE,
  input: z.object({ code: Code, language: LanguageField, filename: z.string().max(255).optional().describe('The file’s name; its extension names the language when `language` is not given.'), ...OrderExtras }),
  auth: 'account',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ payment_method, webhook_url, ...order }, ctx) => {
    checkLanguage(ctx, order.language, order.filename);
    return runOrder(ctx, REVIEW_SERVICE, 'review', ctx.config.commercial.prices.review, order, webhook_url, payment_method, false);
  },
});

export const codeReviewMetered = defineTool({
  name: 'code_review_metered',
  title: 'Review code (metered)',
  toolset: 'commercial',
  description:
    'The code review metered per 1,000 tokens of code, with a `focus` (security, performance, style, correctness; one or several) keeping only those findings (syntax errors are always kept). ' +
    'The most it can cost is held, the tokens used are charged on delivery. ' +
    LANGUAGES_SENTENCE,
  input: z.object({ code: Code, language: LanguageField, focus: z.union([Focus, z.array(Focus).min(1).max(4)]).optional().describe('security, performance, style or correctness (or a list); all when absent.'), ...OrderExtras }),
  auth: 'account',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async ({ payment_method, webhook_url, ...order }, ctx) => {
    checkLanguage(ctx, order.language, undefined);
    // The most it can cost: the code's tokens, and with a model its call's prompt and reply.
    const cap = tokensOf(order.code.length) + (ctx.config.llm?.model ? modelTokenCap(order.code.length, order.code.split('\n').length) : 0);
    return runOrder(ctx, METERED_SERVICE, METERED_PRICE_ID, meteredPrice(ctx.config.commercial.prices[METERED_PRICE_ID], cap), order, webhook_url, payment_method, true);
  },
});
