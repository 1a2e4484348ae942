// The services that write: copy orders (POST /copy/orders), the content pipeline (POST /orders) and content
// generation (POST /v1/content/generate, answered with the finished content within the request). Each is an
// order charged on delivery; the writing itself is content/ (the model, the shape checks, the retries).
import { z } from 'zod';
import { meteredPrice, type PriceId } from '../../src/commerce/prices.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import * as store from '../../src/store/orders.js';
import { ContentInput, CopyInput, GenerateInput } from './content/schemas.js';
import { modelOf } from './model-check.js';
import { OrderExtras, placeOrder } from './place.js';
import type { ServiceDef } from './services.js';
import { orderView } from './view.js';

/** How long a content order's hold must stay capturable: its writing, retries included. */
export const CONTENT_WINDOW_MS = 3600_000;

/** A blog post is 15 to 35 USD by length. */
const blogPrice = (words: number): PriceId => (words <= 800 ? 'content.blog.short' : words <= 1500 ? 'content.blog.medium' : 'content.blog.long');

const input = <T>(o: store.OrderRow) => JSON.parse(o.input) as T;

export async function placed(ctx: ToolContext, o: Awaited<ReturnType<typeof placeOrder>>) {
  ctx.meta.headers.Location = `${ctx.config.commercial.baseUrl}/orders/${o.order.id}`;
  return { ...orderView(o.order, ctx.config.commercial.baseUrl), ...(o.webhookSecret ? { webhook_secret: o.webhookSecret, notice: 'The webhook signing secret is shown only now.' } : {}) };
}

export const copyOrder = defineTool({
  name: 'copy_order',
  secretFields: { output: ['webhook_secret'] },
  title: 'Order copy',
  toolset: 'commercial',
  description: 'Orders copy written for a platform: ad (5 variations, $5), email_sequence (5 emails, $15) or product_description (10 descriptions, $10). Charged on delivery; answers 202 with the order.',
  input: CopyInput.extend(OrderExtras),
  auth: 'account',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ payment_method, webhook_url, ...order }, ctx) => {
    modelOf(ctx);
    const priceId: PriceId = `copy.${order.type}`;
    const amount = ctx.config.commercial.prices[priceId];
    return placed(ctx, await placeOrder(ctx, { service: `copy.${order.type}`, priceId, amount, input: order, webhookUrl: webhook_url, capturableForMs: CONTENT_WINDOW_MS }, payment_method));
  },
});

export const contentOrder = defineTool({
  name: 'content_order',
  secretFields: { output: ['webhook_secret'] },
  title: 'Order content',
  toolset: 'commercial',
  description: 'Orders content from the pipeline: blog (a post of word_count words, $15 to $35 by length), social_pack (10 posts, $5) or newsletter ($25). Charged on delivery; answers 202 with the order.',
  input: ContentInput.and(z.object(OrderExtras)),
  auth: 'account',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ payment_method, webhook_url, ...order }, ctx) => {
    modelOf(ctx);
    const priceId: PriceId = order.type === 'blog' ? blogPrice(order.word_count!) : `content.${order.type}`;
    const amount = ctx.config.commercial.prices[priceId];
    return placed(ctx, await placeOrder(ctx, { service: `content.${order.type}`, priceId, amount, input: order, webhookUrl: webhook_url, capturableForMs: CONTENT_WINDOW_MS }, payment_method));
  },
});

/** The writing engine (a score of modules) loads with the first order it makes, not at start-up. */
const engine = () => import('./content/index.js');

/** The producers behind these orders, for the order work (catalog.ts). */
export const contentServices: ServiceDef[] = [
  ...(['ad', 'email_sequence', 'product_description'] as const).map(
    (type): ServiceDef => ({
      service: `copy.${type}`,
      produce: async (o, ctx) => {
        const made = await (await engine()).produceCopy(input<CopyInput>(o), modelOf(ctx), ctx.config.commercial.contentAttempts);
        return { result: made.deliverable, usage: made.usage };
      },
    }),
  ),
  ...(['blog', 'social_pack', 'newsletter'] as const).map(
    (type): ServiceDef => ({
      service: `content.${type}`,
      produce: async (o, ctx) => {
        const made = await (await engine()).produceContent(input<ContentInput>(o), modelOf(ctx), ctx.config.commercial.contentAttempts);
        return { result: made.deliverable, usage: made.usage };
      },
    }),
  ),
  {
    service: 'content.generate',
    produce: async (o, ctx) => {
      const made = await (await engine()).generateContent(input<GenerateInput>(o), modelOf(ctx), ctx.config.commercial.contentAttempts);
      return { result: made.deliverable, usage: made.usage, charge: meteredPrice(ctx.config.commercial.prices['content.generate.per_1k_tokens'], made.usage.total_tokens) };
    },
  },
];
