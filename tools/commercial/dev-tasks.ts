// Dev tasks (POST /dev/tasks): classified into the spec's tiers by fixed rules (the quote is the same for the same
// words, and `quote_only` shows it without ordering), written by the model, sent back for revisions as often as
// allowed, and captured only when the client accepts (or when the acceptance window ends).
import { z } from 'zod';
import { microToUsd } from '../../src/commerce/prices.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import type * as store from '../../src/store/orders.js';
import { classifyDevTask, DevTaskInput, produceDevTask, type DevTaskDeliverable } from './content/index.js';
import { modelOf } from './model-check.js';
import { MAX_REVISIONS } from './orders.js';
import { OrderExtras, placeOrder } from './place.js';
import type { ServiceDef } from './services.js';
import { orderView } from './view.js';

/** A day beyond the acceptance window: the hold must outlive the auto-acceptance that captures it. */
const SLACK_MS = 24 * 3600_000;

function quoteOf(ctx: ToolContext, input: DevTaskInput) {
  const c = classifyDevTask(input);
  const amount = ctx.config.commercial.prices[c.price_id];
  return { tier: c.tier, price_id: c.price_id, price: { usd: microToUsd(amount), micro_usd: amount }, score: c.score, reasons: c.reasons, amount };
}

export const devTaskCreate = defineTool({
  name: 'dev_task_create',
  title: 'Order a dev task',
  toolset: 'commercial',
  description:
    'Orders a development task, priced by its tier: simple $25, medium $100, complex $250 (the quote comes with the order; quote_only shows it ' +
    `without ordering). You may ask for up to ${MAX_REVISIONS} revisions; the payment is captured only when you accept (order_accept), or when the ` +
    'acceptance window ends. Not payable by x402 (an authorization cannot wait for the acceptance).',
  input: DevTaskInput.extend({ ...OrderExtras, quote_only: z.boolean().default(false).describe('Only show the tier and price; nothing is ordered or held.') }),
  auth: 'account',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ payment_method, webhook_url, quote_only, ...task }, ctx) => {
    const { amount, ...quote } = quoteOf(ctx, task);
    if (quote_only) return { quote, ordered: false };
    modelOf(ctx);
    const placed = await placeOrder(
      ctx,
      {
        service: 'dev.task',
        priceId: quote.price_id,
        amount,
        input: { ...task, tier: quote.tier },
        webhookUrl: webhook_url,
        capturableForMs: ctx.config.commercial.devAutoAcceptMs + SLACK_MS,
        refuses: { x402: 'A dev task is captured when you accept it, days after the order: an x402 authorization cannot wait that long. Pay with the prepaid balance or a card.' },
      },
      payment_method,
    );
    ctx.meta.headers.Location = `${ctx.config.commercial.baseUrl}/orders/${placed.order.id}`;
    return {
      ...orderView(placed.order, ctx.config.commercial.baseUrl),
      quote,
      ...(placed.webhookSecret ? { webhook_secret: placed.webhookSecret, notice: 'The webhook signing secret is shown only now.' } : {}),
    };
  },
});

export const devTaskService: ServiceDef = {
  service: 'dev.task',
  acceptance: true,
  produce: async (o: store.OrderRow, ctx) => {
    const { tier, ...task } = JSON.parse(o.input) as DevTaskInput & { tier: 'simple' | 'medium' | 'complex' };
    const revising = o.revision_notes !== null && o.result !== null;
    const made = await produceDevTask(task, modelOf(ctx), {
      tier,
      attempts: ctx.config.commercial.contentAttempts,
      ...(revising ? { revisionNotes: o.revision_notes!, previous: JSON.parse(o.result!) as DevTaskDeliverable } : {}),
    });
    return { result: made.deliverable, usage: made.usage };
  },
};
