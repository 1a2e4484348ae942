import { route, type Route } from '../src/http/route.js';

export const catalogRoutes: Route[] = [
  route('GET', '/new', 'catalog_new', { summary: 'Newest tools and listings' }),
  route('GET', '/trending', 'catalog_trending', { summary: 'Ranked by call volume over the last 30 days' }),
  route('GET', '/collections', 'catalog_collections', { summary: 'Curated collections' }),
  route('GET', '/collections/{slug}', 'catalog_collection', { summary: 'One collection' }),
  route('GET', '/bundles', 'catalog_bundles', { summary: 'Starter bundles' }),
  route('GET', '/bundles/{slug}', 'catalog_bundle', { summary: 'One bundle' }),
  route('GET', '/tutorials', 'catalog_tutorials', { summary: 'Tutorials' }),
  route('GET', '/tutorials/{slug}', 'catalog_tutorial', { summary: 'One tutorial' }),
  route('GET', '/services', 'catalog_services', { summary: 'Productized services (commercial group) with prices' }),
  route('GET', '/services/{slug}', 'catalog_service', { summary: 'One service' }),
  route('GET', '/intelligence', 'catalog_intelligence', { summary: 'Ecosystem counts, categories, usage' }),
  route('GET', '/levels', 'xp_levels', { summary: 'The XP level ladder' }),
  route('GET', '/badges', 'xp_badges', { summary: 'Every achievable badge with its rule' }),
  route('GET', '/agents/templates', 'agent_templates', { summary: 'Executing agent templates' }),
  route('GET', '/agents/templates/{slug}', 'agent_template_get', { summary: 'One agent template' }),
  route('POST', '/agents/templates/{slug}/run', 'agent_template_run', { summary: 'Run a template live with your credentials' }),
];
