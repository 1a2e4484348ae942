// The deep audit (docs/decisions/commercial-seo.md): the quick checks of the page, the site's robots.txt and
// sitemaps with a bounded crawl (site.ts), the page's content (content.ts) and Lighthouse when it can run
// (lighthouse.ts); every check with pass/fail and evidence, and an action plan: every failed check, ordered by
// impact × ease (low effort 3, medium 2, high 1), then impact, then the order the checks are listed in.
import type { Egress } from '../../../src/egress/index.js';
import { EASE } from './audit-types.js';
import { auditPage, CHECKS, type CheckResult, type Effort, type Page } from './checks.js';
import { analyseContent, CONTENT_FIXES } from './content.js';
import { runLighthouse, LIGHTHOUSE_FIXES, type LighthouseSettings } from './lighthouse.js';
import { auditSite, SITE_FIXES } from './site.js';

export type Scope = 'page' | 'site' | 'content' | 'lighthouse';

export interface PlanItem {
  check: string;
  scope: Scope;
  title: string;
  fix: string;
  impact: number;
  effort: Effort;
  priority: number;
  evidence: string;
}

/** Every failed check, the most gain for the least work first. */
export function actionPlan(groups: { scope: Scope; checks: CheckResult[]; fixes: Record<string, string> }[]): PlanItem[] {
  const failed = groups.flatMap((g) => g.checks.filter((c) => !c.passed).map((c) => ({ c, scope: g.scope, fix: g.fixes[c.id] ?? c.title })));
  return failed
    .map((f, i) => ({ ...f, i, priority: f.c.weight * EASE[f.c.effort] }))
    .sort((a, b) => b.priority - a.priority || b.c.weight - a.c.weight || a.i - b.i)
    .map(({ c, scope, fix, priority }) => ({ check: c.id, scope, title: c.title, fix, impact: c.weight, effort: c.effort, priority, evidence: c.evidence }));
}

const QUICK_FIXES: Record<string, string> = Object.fromEntries(CHECKS.map((d) => [d.id, d.fix]));

export async function deepAudit(egress: Egress, page: Page, now: number, lighthouseSettings: LighthouseSettings, signal?: AbortSignal) {
  const quick = auditPage(page);
  const content = analyseContent(page.html);
  const [site, lighthouse] = await Promise.all([auditSite(egress, page, now, signal), runLighthouse(egress, page.finalUrl, lighthouseSettings, signal)]);
  const { checks: contentChecks, ...contentFacts } = content;
  const lhChecks = lighthouse.ran ? lighthouse.checks : [];
  const plan = actionPlan([
    { scope: 'page', checks: quick.checks, fixes: QUICK_FIXES },
    { scope: 'site', checks: site.checks, fixes: SITE_FIXES },
    { scope: 'content', checks: contentChecks, fixes: CONTENT_FIXES },
    { scope: 'lighthouse', checks: lhChecks, fixes: LIGHTHOUSE_FIXES },
  ]);
  const all = [...quick.checks, ...site.checks, ...contentChecks, ...lhChecks];
  const total = all.reduce((s, c) => s + c.weight, 0);
  const passed = all.filter((c) => c.passed).reduce((s, c) => s + c.weight, 0);
  return {
    score: quick.score,
    overall_score: Math.round((100 * passed) / total),
    failed: all.filter((c) => !c.passed).map((c) => c.id),
    action_plan: plan,
    checks: quick.checks,
    site_checks: site.checks,
    content_checks: contentChecks,
    lighthouse_checks: lhChecks,
    robots_txt: site.robots_txt,
    sitemap: site.sitemap,
    crawl: site.crawl,
    content: contentFacts,
    lighthouse: lighthouse.ran ? lighthouse.report : null,
    skipped: lighthouse.ran ? [] : ['lighthouse'],
    skipped_why: lighthouse.ran ? {} : { lighthouse: lighthouse.why },
  };
}
