// GET /prices at {api_url}: the group's price table as this gateway charges it (the operator's overrides applied),
// one entry per price, with the service and route it is ordered at; the code review's entries list the languages
// a review supports (issue 43).
import { z } from 'zod';
import { orderPath } from '../../src/commerce/index.js';
import { microToUsd, type PriceId } from '../../src/commerce/prices.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { LANGUAGES } from './review/languages.js';

/** What each price is for: the order's service and what one price buys. */
const ENTRIES: Record<PriceId, { service: string; per: string }> = {
  review: { service: 'review', per: 'review' },
  'code_review.per_1k_tokens': { service: 'code_review', per: '1K tokens' },
  'seo.quick': { service: 'seo.quick', per: 'quick audit' },
  'seo.deep': { service: 'seo.deep', per: 'deep audit' },
  'copy.ad': { service: 'copy.ad', per: '5 ad variations' },
  'copy.email_sequence': { service: 'copy.email_sequence', per: 'sequence of 5 emails' },
  'copy.product_description': { service: 'copy.product_description', per: 'batch of 10 descriptions' },
  'content.blog.short': { service: 'content.blog', per: 'blog post up to 800 words' },
  'content.blog.medium': { service: 'content.blog', per: 'blog post up to 1,500 words' },
  'content.blog.long': { service: 'content.blog', per: 'blog post over 1,500 words' },
  'content.social_pack': { service: 'content.social_pack', per: 'pack of 10 posts' },
  'content.newsletter': { service: 'content.newsletter', per: 'newsletter' },
  'dev.simple': { service: 'dev.task', per: 'simple task' },
  'dev.medium': { service: 'dev.task', per: 'medium task' },
  'dev.complex': { service: 'dev.task', per: 'complex task' },
  'chat.per_1k_tokens': { service: 'chat', per: '1K tokens' },
  'extract.per_1k_tokens': { service: 'extract', per: '1K tokens' },
  'content.generate.per_1k_tokens': { service: 'content.generate', per: '1K tokens' },
};

const REVIEWS = new Set(['review', 'code_review']);

export const priceList = defineTool({
  name: 'commercial_prices',
  title: 'Commercial prices',
  toolset: 'commercial',
  description:
    'Every price of the commercial group as this gateway charges it: the price id, the service and route it is ordered at, and what one price buys. ' +
    'The code review entries list the languages a review supports.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => priceTable(ctx),
});

/** The price table as charged here (the operator's overrides applied). */
export function priceTable(ctx: Pick<ToolContext, 'config'>) {
  const reviewsOthers = !!ctx.config.llm?.model;
  return {
    currency: 'USD',
    charged: 'on delivery',
    prices: (Object.keys(ENTRIES) as PriceId[]).map((id) => {
      const { service, per } = ENTRIES[id];
      const micro = ctx.config.commercial.prices[id];
      return {
        price_id: id,
        service,
        path: orderPath(service),
        price: { usd: microToUsd(micro), micro_usd: micro },
        per,
        ...(REVIEWS.has(service)
          ? { languages: [...LANGUAGES], other_languages: reviewsOthers ? 'reviewed by the operator’s model' : 'refused with 422 unsupported_language, nothing held' }
          : {}),
      };
    }),
  };
}
