// POST /extract {source, source_type, schema}: structured data from a text, a page's HTML or a URL, as JSON of
// the caller's fields. An order metered per 1,000 tokens, made within its request (the spec: "returns structured
// JSON"): the most it can cost is held, the work runs, the tokens used are captured on delivery and the rest
// given back; a failure (a blocked or unreachable URL, a model that keeps missing the schema) costs nothing.
import { z } from 'zod';
import { meteredPrice } from '../../../src/commerce/prices.js';
import { GatewayError } from '../../../src/errors.js';
import { defineTool } from '../../../src/registry/define-tool.js';
import type { WorkerContext } from '../../../src/registry/types.js';
import * as store from '../../../src/store/orders.js';
import { METERED_X402, OrderExtras, placeOrder } from '../place.js';
import { orderView } from '../view.js';
import { orderKind } from '../work.js';
import { HTML_MAX_CHARS, TEXT_MAX_CHARS, tokenCap } from './limits.js';
import { parseSchema } from './schema.js';
import { EXTRACT_SERVICE, PRICE_ID, watchFailures } from './service.js';

const ExtractFields = z.object({
  source: z.string().min(1).describe('The text to read; or, with source_type url, the http(s) URL of the page; or, with source_type html, the page’s HTML.'),
  source_type: z.enum(['text', 'url', 'html']).default('text').describe('text (default), url (fetched through the gateway’s egress guard) or html.'),
  schema: z
    .record(z.string(), z.unknown())
    .describe(
      'The fields to fill: a JSON Schema of an object ({"type":"object","properties":{…}}; a property may be an object with properties of its own, or an array of values or of objects), ' +
        'or field names and types ({"name":"string","price":"number","email":"email","address":{"city":"string"},"offers":[{"price":"number"}]}; types string, number, integer, boolean, email, url, phone, date, money, person, organization, place, each optionally with []). ' +
        '`@type` and `@id` name an item’s type and identifier. At most 50 fields an object, 200 in all, 6 levels deep.',
    ),
  ...OrderExtras,
});
const LIMITS = { text: TEXT_MAX_CHARS, html: HTML_MAX_CHARS, url: 2000 } as const;

export const ExtractInput = ExtractFields.superRefine((v, c) => {
  const max = LIMITS[v.source_type];
  if (v.source.length > max) c.addIssue({ code: 'custom', path: ['source'], message: `A ${v.source_type} source is at most ${max} characters.` });
  const parsed = parseSchema(v.schema, []);
  if ('issues' in parsed) for (const i of parsed.issues) c.addIssue({ code: 'custom', path: ['schema', ...i.loc], message: i.msg });
});

export const dataExtract = defineTool({
  name: 'data_extract',
  title: 'Extract structured data',
  toolset: 'commercial',
  description:
    'Fills the fields of a schema, nested objects and lists included, from a text, a page’s HTML or a URL, and answers with them: structured data in the page (JSON-LD, microdata, RDFa, OpenGraph, tables), ' +
    'entities (people, organisations, places, dates, money) and patterns (emails, phones, URLs), or the operator’s model when one is set. ' +
    'A field nothing fills is null and listed in `missing`; `sources` says where each value came from. Metered per 1,000 tokens: the most it can cost is held, only the tokens used are charged, on delivery; a failure costs nothing.',
  input: ExtractInput,
  auth: 'account',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ payment_method, webhook_url, ...order }, ctx) => {
    const c = ctx.config.commercial;
    const cap = tokenCap(order.source_type, order.source.length, JSON.stringify(order.schema).length, !!ctx.config.llm?.model);
    const amount = meteredPrice(c.prices[PRICE_ID], cap);
    const { order: o } = await placeOrder(
      ctx,
      // Made within this request; the queued work is the safety net should the process stop meanwhile.
      { service: EXTRACT_SERVICE, priceId: PRICE_ID, amount, input: order, webhookUrl: webhook_url, capturableForMs: 3600_000, dueInMs: orderKind.leaseMs, refuses: { x402: METERED_X402 } },
      payment_method,
    );
    const seen = watchFailures(ctx);
    // The caller is waiting: a failure ends the order at once (released) instead of waiting for a retry.
    await orderKind.run(o.id, ctx as WorkerContext, orderKind.maxAttempts);
    const done = (await store.orderById(ctx.db, o.id))!;
    if (done.status !== 'delivered') {
      const e = seen.error;
      const message = `${e?.message ?? done.error ?? 'The extraction could not be made.'} The order failed and nothing was charged.`;
      throw new GatewayError(e?.code ?? (done.status === 'failed' ? 'upstream_error' : 'unavailable'), message, { extra: { ...(e?.extra ?? {}), order_id: o.id, status: done.status }, ...(e?.detail ? { detail: e.detail } : {}) });
    }
    const view = orderView(done, c.baseUrl);
    return { ...(view.result as Record<string, unknown>), order_id: o.id, usage: view.usage, charged: { usd: view.payment.charged_usd, micro_usd: view.payment.charged_micro_usd } };
  },
});
