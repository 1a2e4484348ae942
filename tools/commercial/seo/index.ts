// SEO audits (issue 24): POST /seo/audits on the commercial listener. tool.ts is the tool (places the order);
// service.ts the order's work; fetch.ts the page through egress; checks.ts the checks, the score and the fixes.
// The catalog imports service.ts itself.
export { seoAudit } from './tool.js';
