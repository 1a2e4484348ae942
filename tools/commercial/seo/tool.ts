// POST /seo/audits {url, audit_type}: an SEO audit of a page, an order charged on delivery (202, like
// POST /copy/orders): the price is held, the audit runs in the order's work (the page fetched through egress),
// and the price is captured when the audit is delivered; a page that cannot be fetched releases it.
// The deep audit ($30) is the same kind of order, with the site's robots.txt, sitemaps, a bounded crawl, content
// analysis and Lighthouse (docs/decisions/commercial-seo.md).
import { z } from 'zod';
import type { PriceId } from '../../../src/commerce/prices.js';
import { requireEngine } from '../../../src/engines.js';
import { defineTool } from '../../../src/registry/define-tool.js';
import { placed } from '../content-orders.js';
import { OrderExtras, placeOrder } from '../place.js';
import { SEO_TIMEOUT_MS } from './fetch.js';
import { SEO_DEEP, SEO_DEEP_TIMEOUT_MS, SEO_QUICK } from './service.js';

export const SeoInput = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000).describe('The page to audit: an absolute http(s) URL, fetched through the gateway’s egress guard under the site’s robots.txt.'),
  audit_type: z.enum(['quick', 'deep']).default('quick').describe('quick ($10): the page itself, scored with every check’s evidence and the top 5 fixes. deep ($30): the quick checks plus robots.txt, sitemap.xml, a crawl of up to 25 internal pages (duplicate titles and descriptions, broken links, orphan pages, redirect chains), content analysis and Lighthouse (when the gateway has Chromium), with an action plan.'),
  ...OrderExtras,
});

export const seoAudit = defineTool({
  name: 'seo_audit',
  title: 'Order an SEO audit',
  toolset: 'commercial',
  description:
    'Audits a page for search: status and redirects, HTTPS, title and meta description, H1 and heading order, canonical, robots meta and X-Robots-Tag, viewport, lang, ' +
    'image alt text, link text, OpenGraph/Twitter cards, JSON-LD, hreflang, page weight and response time. Answers 202 with the order; its result is a score 0–100, ' +
    'every check with pass/fail and evidence, and the top 5 fixes by impact. quick: $10, charged on delivery; an unreachable page costs nothing. deep: $30, adds robots.txt, sitemaps, a bounded crawl of the site, content analysis, ' +
    'Lighthouse when available, and an action plan of every failed check ordered by impact and effort.',
  input: SeoInput,
  auth: 'account',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async ({ payment_method, webhook_url, ...order }, ctx) => {
    // Lighthouse is an optional package (its language list serves the quick audit too): without it, a 503 before any hold.
    requireEngine('seo');
    const deep = order.audit_type === 'deep';
    const priceId: PriceId = deep ? 'seo.deep' : 'seo.quick';
    const amount = ctx.config.commercial.prices[priceId];
    // Capturable for the work and its retries (the scheduler's backoff), with room to spare.
    const capturableForMs = 3600_000 + 3 * (deep ? SEO_DEEP_TIMEOUT_MS : SEO_TIMEOUT_MS);
    return placed(ctx, await placeOrder(ctx, { service: deep ? SEO_DEEP : SEO_QUICK, priceId, amount, input: order, webhookUrl: webhook_url, capturableForMs }, payment_method));
  },
});
