// The SEO audit agrees with Lighthouse's SEO category (issue 43) on the pages with known faults of
// test/fixtures/quality/seo: every SEO audit Lighthouse fails on a page has a matching finding in the quick or the
// deep audit (tools/commercial/seo/lighthouse-map.ts), and none is reported where Lighthouse passes. Lighthouse
// runs once per page, inside the deep audit (or alone for a page the service refuses), in Chromium.
import { beforeAll, describe, expect, it } from 'vitest';
import { agreement, auditFixtures, loadPages, type PageResult } from '../../bench/quality/seo.js';
import { LIGHTHOUSE_SEO_MAP } from '../../tools/commercial/seo/lighthouse-map.js';
import { hasChromium } from '../helpers/browser.js';
import { ENGINES_ONLY_ONCE } from '../helpers/each-store.js';

describe('the Lighthouse map', () => {
  it('maps every audit of Lighthouse’s SEO category, each scored one to a finding', async () => {
    const { default: config } = (await import('lighthouse/core/config/default-config.js')) as unknown as { default: { categories: { seo: { auditRefs: { id: string; weight: number }[] } } } };
    const seo = config.categories.seo.auditRefs;
    expect(LIGHTHOUSE_SEO_MAP.map((m) => m.audit).sort()).toEqual([...new Set(seo.map((r) => r.id))].sort());
    // Only Lighthouse's unscored (manual) audits go without a finding.
    for (const m of LIGHTHOUSE_SEO_MAP) {
      if (m.manual) expect({ audit: m.audit, weight: seo.find((r) => r.id === m.audit)!.weight }).toEqual({ audit: m.audit, weight: 0 });
      else expect({ audit: m.audit, mapped: m.findings.length > 0 }).toEqual({ audit: m.audit, mapped: true });
    }
  });
});

/**
 * A fixed subset in npm test: the clean page and the faults the service once missed (a Lighthouse run is about 20 s
 * a page); `npm run bench -- quality` runs every page. The audits are the engines' alone, so the run on the
 * PostgreSQL store (GATEWAY_TEST_STORE=postgres) does not repeat them.
 */
const SUBSET = ['clean', 'canonical-relative', 'uncrawlable-anchors', 'robots-invalid'];

describe.skipIf(!hasChromium || ENGINES_ONLY_ONCE)('the SEO audit agrees with Lighthouse’s SEO category', () => {
  let results: PageResult[];
  beforeAll(async () => {
    results = await auditFixtures(SUBSET);
  }, 600_000);

  it('Lighthouse fails on each page the audits its fault was built for, and nothing on the clean page', () => {
    const { pages } = loadPages();
    for (const r of results) expect({ page: r.page, fails: [...r.lighthouse].sort() }).toEqual({ page: r.page, fails: [...pages.find((p) => p.name === r.page)!.lighthouse_fails].sort() });
  });

  it('every failing audit has a matching finding and no passing one does', () => {
    const rows = agreement(results);
    expect(results.map((r) => r.page).sort()).toEqual([...SUBSET].sort());
    for (const row of rows) {
      expect({ audit: row.audit, matched: row.matched, extra: row.extra }).toEqual({ audit: row.audit, matched: row.fails, extra: [] });
    }
    // The subset's faults are each failed by Lighthouse and found by the service.
    expect(rows.filter((r) => r.fails.length).map((r) => r.audit).sort()).toEqual(['canonical', 'crawlable-anchors', 'robots-txt']);
  });
});
