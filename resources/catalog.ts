// The catalogues as MCP resources: each is read through its public registry tool.
import type { ResourceDef, ResourceTemplateDef } from '../src/registry/resource-defs.js';

const json = 'application/json';

const fixed = (name: string, title: string, tool: string, description: string): ResourceDef => ({
  uri: `catalog://${name}`,
  name: `catalog-${name}`,
  title,
  description,
  mimeType: json,
  tool,
});

export const catalogResources: ResourceDef[] = [
  fixed('new', 'New tools and listings', 'catalog_new', 'The newest tools and listings of this gateway.'),
  fixed('trending', 'Trending', 'catalog_trending', 'Tools and templates ranked by calls over the last 30 days.'),
  fixed('collections', 'Collections', 'catalog_collections', 'Curated collections of tools.'),
  fixed('bundles', 'Starter bundles', 'catalog_bundles', 'Toolset bundles with ready MCP configurations.'),
  fixed('tutorials', 'Tutorials', 'catalog_tutorials', 'Step-by-step tutorials: memory, x402, watches, vault, MCP, the wall.'),
  fixed('services', 'Services', 'catalog_services', 'The commercial group of services with prices.'),
  fixed('intelligence', 'Ecosystem intelligence', 'catalog_intelligence', 'Live ecosystem counts and usage.'),
  fixed('levels', 'XP levels', 'xp_levels', 'The XP level ladder and XP rules.'),
  fixed('badges', 'Badges', 'xp_badges', 'Every achievable badge with its rule.'),
  fixed('templates', 'Agent templates', 'agent_templates', 'Executing agent templates.'),
];

const item = (kind: string, title: string, tool: string): ResourceTemplateDef => ({
  uriTemplate: `catalog://${kind}/{slug}`,
  name: `catalog-${kind}-item`,
  title,
  description: `One item of catalog://${kind} by slug.`,
  mimeType: json,
  tool,
});

export const catalogResourceTemplates: ResourceTemplateDef[] = [
  item('collections', 'Collection', 'catalog_collection'),
  item('bundles', 'Starter bundle', 'catalog_bundle'),
  item('tutorials', 'Tutorial', 'catalog_tutorial'),
  item('services', 'Service', 'catalog_service'),
  item('templates', 'Agent template', 'agent_template_get'),
];
