// POST /v1/content/generate: a finished piece answered within the request (the spec: "returns finished content").
// It is an order like the others, held first and captured on delivery, whose work runs in the request; the
// queued work is the safety net should the process stop meanwhile.
import { meteredPrice } from '../../src/commerce/prices.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { WorkerContext } from '../../src/registry/types.js';
import * as store from '../../src/store/orders.js';
import { GenerateInput } from './content/schemas.js';
import { CONTENT_WINDOW_MS } from './content-orders.js';
import { modelOf } from './model-check.js';
import { METERED_X402, OrderExtras, placeOrder } from './place.js';
import { orderView } from './view.js';
import { orderKind, workInRequest } from './work.js';

/** Most tokens a generation may use: every attempt's prompt and a reply of the longest allowed length. */
const generationCap = (words: number, attempts: number) => attempts * (Math.ceil(words * 1.15 * 2) + 1000);

export const contentGenerate = defineTool({
  name: 'content_generate',
  title: 'Generate content now',
  toolset: 'commercial',
  description:
    'Writes a finished piece (topic, type, tone, word_count) and answers with it. Metered per 1,000 tokens: the most it can cost is held first, ' +
    'and only the tokens used are charged, on delivery; a failure costs nothing.',
  input: GenerateInput.extend(OrderExtras),
  auth: 'account',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ payment_method, webhook_url, ...order }, ctx) => {
    modelOf(ctx);
    const c = ctx.config.commercial;
    const amount = meteredPrice(c.prices['content.generate.per_1k_tokens'], generationCap(order.word_count, c.contentAttempts));
    const { order: o } = await placeOrder(
      ctx,
      // Written within this request; the queued work is the safety net should the process stop meanwhile.
      { service: 'content.generate', priceId: 'content.generate.per_1k_tokens', amount, input: order, webhookUrl: webhook_url, capturableForMs: CONTENT_WINDOW_MS, dueInMs: orderKind.leaseMs, refuses: { x402: METERED_X402 } },
      payment_method,
    );
    await workInRequest(ctx as WorkerContext, o.id);
    const done = (await store.orderById(ctx.db, o.id))!;
    if (done.status !== 'delivered') {
      throw new GatewayError(done.status === 'failed' ? 'upstream_error' : 'unavailable', `${done.error ?? 'The content could not be written.'} Nothing was charged.`, { extra: { order_id: o.id, status: done.status } });
    }
    const view = orderView(done, c.baseUrl);
    return { ...(view.result as Record<string, unknown>), order_id: o.id, usage: view.usage, charged: { usd: view.payment.charged_usd, micro_usd: view.payment.charged_micro_usd } };
  },
});

