// SEO audits (issue 24): POST /seo/audits on the commercial listener. tool.ts is the tool (places the order);
// service.ts the orders' work; fetch.ts the page through egress; checks.ts the checks, the score and the fixes;
// deep.ts the deep audit (site.ts robots.txt, sitemaps and the crawl; content.ts the text; lighthouse.ts Lighthouse).
// The catalog imports service.ts itself.
export { seoAudit } from './tool.js';
