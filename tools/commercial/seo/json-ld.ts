// JSON-LD items checked against what their schema.org type needs (the structured_data check of checks.ts).

/** Properties a schema.org type needs to be read as that type (Google's required properties, shortened). */
const REQUIRED: Record<string, string[]> = {
  Article: ['headline'],
  NewsArticle: ['headline'],
  BlogPosting: ['headline'],
  Product: ['name', 'offers|review|aggregateRating'],
  Offer: ['price|priceSpecification'],
  Organization: ['name'],
  LocalBusiness: ['name', 'address'],
  Person: ['name'],
  Event: ['name', 'startDate', 'location'],
  Recipe: ['name', 'image'],
  FAQPage: ['mainEntity'],
  BreadcrumbList: ['itemListElement'],
  WebSite: ['name|url'],
  WebPage: ['name|url'],
  Review: ['itemReviewed', 'author', 'reviewRating'],
  AggregateRating: ['ratingValue', 'reviewCount|ratingCount'],
  VideoObject: ['name', 'thumbnailUrl', 'uploadDate'],
  JobPosting: ['title', 'description', 'datePosted', 'hiringOrganization'],
  HowTo: ['name', 'step'],
  SoftwareApplication: ['name', 'offers|aggregateRating|review'],
};

/** Problems of one JSON-LD item and its typed nested items: a missing @type or required property. */
export function itemProblems(item: unknown, where: string, out: string[], depth = 0): void {
  if (depth > 8 || item === null || typeof item !== 'object') return;
  if (Array.isArray(item)) return item.forEach((x, i) => itemProblems(x, `${where}[${i}]`, out, depth + 1));
  const o = item as Record<string, unknown>;
  if (Array.isArray(o['@graph'])) return itemProblems(o['@graph'], `${where}.@graph`, out, depth + 1);
  const types = ([] as unknown[]).concat(o['@type'] ?? []).filter((t): t is string => typeof t === 'string');
  if (depth === 0 && !types.length) out.push(`${where} has no @type`);
  for (const t of types) {
    for (const need of REQUIRED[t] ?? []) {
      const alternatives = need.split('|');
      if (!alternatives.some((p) => o[p] !== undefined && o[p] !== null && o[p] !== '')) out.push(`${t} at ${where} lacks ${alternatives.join(' or ')}`);
    }
  }
  for (const [k, v] of Object.entries(o)) if (!k.startsWith('@') && v && typeof v === 'object') itemProblems(v, `${where}.${k}`, out, depth + 1);
}
