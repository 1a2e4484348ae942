// What an SEO audit order's work does (the order engine's producer for `seo.quick`, named in catalog.ts): fetch
// the page through egress and run the checks on it. The deliverable is the score, every check with its
// evidence, and the top fixes. Apart from tool.ts: the catalog must not import the tool.
import { requireEngine } from '../../../src/engines.js';
import type { WorkerContext } from '../../../src/registry/types.js';
import type * as store from '../../../src/store/orders.js';
import type { ServiceDef } from '../services.js';
import { fetchPage, SEO_TIMEOUT_MS } from './fetch.js';

// The checks and the deep audit (linkedom, fast-xml-parser, syllable: a fifth of a second to load) load with the
// first audit, not with every gateway that starts. Both need Lighthouse, an optional package: an order placed before
// it was removed fails with 503 engine_not_installed (not a failure worth retrying), which releases its hold.
const checks = () => (requireEngine('seo'), import('./checks.js'));
const deep = () => (requireEngine('seo'), import('./deep.js'));

export const SEO_QUICK = 'seo.quick';
export const SEO_DEEP = 'seo.deep';
/** The deep audit's whole time: the page, then the crawl's budget, the sitemaps and Lighthouse alongside. */
export const SEO_DEEP_TIMEOUT_MS = SEO_TIMEOUT_MS + 120_000;

interface StoredInput {
  url: string;
  audit_type: 'quick' | 'deep';
}

async function produce(o: store.OrderRow, ctx: WorkerContext) {
  const input = JSON.parse(o.input) as StoredInput;
  const { auditPage } = await checks();
  const page = await fetchPage(ctx.services.egress, input.url, ctx.clock.now(), AbortSignal.timeout(SEO_TIMEOUT_MS + 5_000));
  const audit = auditPage(page);
  return {
    result: {
      audit_type: 'quick',
      url: page.url,
      final_url: page.finalUrl,
      score: audit.score,
      top_fixes: audit.top_fixes,
      failed: audit.failed,
      checks: audit.checks,
      page: { status: page.status, redirects: page.redirects, bytes: page.bytes, response_ms: Math.round(page.elapsedMs), content_type: page.headers['content-type'] ?? null },
      scoring: 'Each check has a weight by impact (the weights sum to 100); the score is the weights of the checks passed. The fixes are the failed checks ordered by weight × ease (low effort 3, medium 2, high 1).',
    },
  };
}

export const seoQuickService: ServiceDef = { service: SEO_QUICK, produce };

/** The deep audit: the page fetched as the quick one (its failures fail the order), then the deep parts. */
async function produceDeep(o: store.OrderRow, ctx: WorkerContext) {
  const input = JSON.parse(o.input) as StoredInput;
  const { deepAudit } = await deep();
  const signal = AbortSignal.timeout(SEO_DEEP_TIMEOUT_MS);
  const page = await fetchPage(ctx.services.egress, input.url, ctx.clock.now(), signal);
  const audit = await deepAudit(ctx.services.egress, page, ctx.clock.now(), ctx.config.commercial.lighthouse, signal);
  return {
    result: {
      audit_type: 'deep',
      url: page.url,
      final_url: page.finalUrl,
      ...audit,
      page: { status: page.status, redirects: page.redirects, bytes: page.bytes, response_ms: Math.round(page.elapsedMs), content_type: page.headers['content-type'] ?? null },
      scoring:
        '`score` is the quick audit’s (the page’s 20 checks, weights summing to 100); `overall_score` is the weights passed of every check run (page, site, content, Lighthouse). ' +
        'The action plan is every failed check ordered by impact × ease (low effort 3, medium 2, high 1), then impact.',
    },
  };
}

export const seoDeepService: ServiceDef = { service: SEO_DEEP, produce: produceDeep };
