// Lighthouse 13's SEO category (core/config/default-config.js, category `seo`) mapped to the findings of this
// service that report the same fault (docs/decisions/commercial-seo.md, "Agreement with Lighthouse"). A finding
// is a failed check id of the quick audit (checks.ts) or of the deep audit (site.ts), or `order:<reason>` when the
// service refuses the page itself (it audits only a 2xx page its robots.txt lets it fetch, and says why not).
// Agreement: where the audit fails, at least one of its findings is reported; where it passes, none is.

export interface LighthouseMapping {
  /** Lighthouse's audit id. */
  audit: string;
  /** The service's findings that report that fault. */
  findings: string[];
  /** Manual audits have no score: Lighthouse never fails them, so they are listed, not compared. */
  manual?: true;
  /** How the findings read the fault, where it is not plain from the ids. */
  note?: string;
}

export const LIGHTHOUSE_SEO_MAP: LighthouseMapping[] = [
  {
    audit: 'is-crawlable',
    findings: ['indexable', 'robots_txt', 'order:robots_disallowed'],
    note: 'noindex/none/a past unavailable_after in the robots meta tag or X-Robots-Tag is `indexable`; a robots.txt that keeps every crawler out also keeps the gateway out, so the order fails with reason robots_disallowed (a robots.txt that keeps Googlebot out only is the deep audit’s `robots_txt`).',
  },
  { audit: 'document-title', findings: ['title'] },
  { audit: 'meta-description', findings: ['meta_description'] },
  {
    audit: 'http-status-code',
    findings: ['status', 'order:upstream_status'],
    note: 'Lighthouse run as the deep audit runs it stops on a 4xx/5xx document (ERRORED_DOCUMENT_REQUEST), which is read as this audit failing; the service refuses to audit such a page (upstream_error, reason upstream_status, not charged).',
  },
  { audit: 'link-text', findings: ['link_text'] },
  { audit: 'crawlable-anchors', findings: ['crawlable_anchors'] },
  { audit: 'robots-txt', findings: ['robots_txt_valid'] },
  { audit: 'image-alt', findings: ['image_alt'] },
  { audit: 'hreflang', findings: ['hreflang'] },
  { audit: 'canonical', findings: ['canonical'] },
  { audit: 'structured-data', findings: [], manual: true, note: 'A manual audit in Lighthouse (weight 0, never failed); the service’s `structured_data` checks JSON-LD itself.' },
];
