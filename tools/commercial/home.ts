// GET / at {api_url}: what the commercial group sells and where to start. JSON for API clients, the /connect-style
// page for browsers (commercialHomeHtml in tools/onboarding/pages.ts). The services and their routes come from the
// price table, never written twice.
import { z } from 'zod';
import { orderPath } from '../../src/commerce/index.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { priceTable } from './price-list.js';

export const commercialHome = defineTool({
  name: 'commercial_home',
  title: 'Commercial home',
  toolset: 'commercial',
  description: 'What the commercial group sells and where to start: sign-up, prices, each service and its route, the OpenAI-compatible endpoints.',
  input: z.object({}),
  auth: 'public',
  expose: { mcp: false },
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const base = ctx.config.commercial.baseUrl;
    const { prices } = priceTable(ctx);
    const services = [...new Map(prices.map((p) => [p.service, p])).values()].map((p) => ({ service: p.service, route: `${base}${orderPath(p.service)}`, from_usd: p.price.usd, per: p.per }));
    return {
      name: 'Agent Gateway: paid services',
      about: 'Code review, SEO audits, copy, content, extraction and dev tasks, charged on delivery: a hold when you order, captured when the work is delivered, released when it fails.',
      start: {
        signup: `POST ${base}/signup`,
        key_header: 'X-Revenue-Key',
        prices: `${base}/prices`,
        usage: `${base}/usage`,
        orders: `${base}/orders`,
        openapi: `${base}/openapi.json`,
      },
      services,
      openai: { models: `${base}/v1/models`, chat: `${base}/v1/chat/completions` },
    };
  },
});
