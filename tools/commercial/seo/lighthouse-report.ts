// What the deep audit keeps of a Lighthouse report (its LHR): the three category scores, the scored audits that
// failed (worst weight first), the lab metrics, and three checks for the audit's plan. Pure, so the process that
// ran Lighthouse sends only this back.
import type { CheckResult } from './audit-types.js';

export const LIGHTHOUSE_CATEGORIES = ['seo', 'performance', 'accessibility'] as const;
type Category = (typeof LIGHTHOUSE_CATEGORIES)[number];

/** The parts of Lighthouse's result (LH.Result) read here. */
export interface Lhr {
  lighthouseVersion: string;
  requestedUrl?: string;
  finalDisplayedUrl: string;
  runWarnings: string[];
  runtimeError?: { code: string; message: string };
  configSettings: { formFactor: string; throttlingMethod: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { id: string; title: string; score: number | null; scoreDisplayMode: string; displayValue?: string; numericValue?: number; details?: { items?: { url?: unknown }[] } }>;
}

export interface FailedAudit {
  id: string;
  category: Category;
  title: string;
  score: number;
  weight: number;
  display_value: string | null;
}

export interface LighthouseReport {
  version: string;
  final_url: string;
  form_factor: string;
  throttling: string;
  scores: Record<Category, number | null>;
  failed_audits: FailedAudit[];
  metrics: Record<string, number | null>;
  warnings: string[];
  /** Every origin the page requested (Lighthouse's network-requests audit), to tell the page's refused requests
   * from the browser's own background ones. */
  page_origins: string[];
}

/** Lighthouse's own "passed" line: 90 and up is green. */
const PASS = 90;
const METRICS: Record<string, string> = {
  first_contentful_paint_ms: 'first-contentful-paint',
  largest_contentful_paint_ms: 'largest-contentful-paint',
  total_blocking_time_ms: 'total-blocking-time',
  cumulative_layout_shift: 'cumulative-layout-shift',
  speed_index_ms: 'speed-index',
};
const SCORED = new Set(['binary', 'numeric', 'metricSavings']);
const pct = (score: number | null): number | null => (score === null ? null : Math.round(score * 100));

export function summariseLhr(lhr: Lhr): LighthouseReport {
  const failed: FailedAudit[] = [];
  for (const category of LIGHTHOUSE_CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || ref.weight <= 0 || a.score === null || !SCORED.has(a.scoreDisplayMode) || pct(a.score)! >= PASS) continue;
      failed.push({ id: a.id, category, title: a.title, score: pct(a.score)!, weight: ref.weight, display_value: a.displayValue ?? null });
    }
  }
  failed.sort((x, y) => y.weight - x.weight || x.score - y.score);
  const round = (v: number | undefined) => (v === undefined ? null : v < 10 ? Math.round(v * 1000) / 1000 : Math.round(v));
  return {
    version: lhr.lighthouseVersion,
    final_url: lhr.finalDisplayedUrl,
    form_factor: lhr.configSettings.formFactor,
    throttling: lhr.configSettings.throttlingMethod,
    scores: Object.fromEntries(LIGHTHOUSE_CATEGORIES.map((c) => [c, pct(lhr.categories[c]?.score ?? null)])) as Record<Category, number | null>,
    failed_audits: failed,
    metrics: Object.fromEntries(Object.entries(METRICS).map(([k, id]) => [k, round(lhr.audits[id]?.numericValue)])),
    warnings: lhr.runWarnings,
    page_origins: pageOrigins(lhr),
  };
}

function pageOrigins(lhr: Lhr): string[] {
  const origins = new Set<string>();
  for (const item of lhr.audits['network-requests']?.details?.items ?? []) {
    if (typeof item.url !== 'string') continue;
    try {
      const u = new URL(item.url);
      if (u.protocol === 'http:' || u.protocol === 'https:') origins.add(u.origin);
    } catch {
      // a data: or blob: URL
    }
  }
  return [...origins];
}

const CHECKS: { category: Category; title: string; weight: number; effort: CheckResult['effort'] }[] = [
  { category: 'seo', title: 'Lighthouse SEO score', weight: 8, effort: 'medium' },
  { category: 'performance', title: 'Lighthouse performance score', weight: 8, effort: 'high' },
  { category: 'accessibility', title: 'Lighthouse accessibility score', weight: 6, effort: 'medium' },
];

export const LIGHTHOUSE_FIXES: Record<string, string> = {
  lighthouse_seo: 'Fix the SEO audits Lighthouse failed (named in the evidence; lighthouse.failed_audits has each one’s score and weight).',
  lighthouse_performance: 'Work on the performance metrics Lighthouse scored low (named in the evidence): smaller and fewer render-blocking resources, optimised images, less main-thread JavaScript.',
  lighthouse_accessibility: 'Fix the accessibility audits Lighthouse failed (named in the evidence): they also keep pages usable for people and parsable for search engines.',
};

/** A check per category: passed at 90 or more, the evidence naming the failed audits, heaviest first. */
export function lighthouseChecks(report: LighthouseReport): CheckResult[] {
  return CHECKS.map(({ category, title, weight, effort }) => {
    const score = report.scores[category];
    const failed = report.failed_audits.filter((a) => a.category === category);
    const named = failed.map((a) => `${a.id} (${a.title}${a.display_value ? `: ${a.display_value}` : ''})`).join('; ');
    return {
      id: `lighthouse_${category}`,
      title,
      passed: score !== null && score >= PASS,
      weight,
      effort,
      evidence: score === null ? `Lighthouse could not score ${category}.` : `${score}/100; ${failed.length ? `failed: ${named}.` : 'no weighted audit failed.'}`,
    };
  });
}
