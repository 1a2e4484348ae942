// Curated catalogues (collections, bundles, tutorials, services): JSON under resources/content, read with
// lowdb (an operator file in <data dir>/content wins). Each has a list tool and a get-by-slug tool;
// "{base_url}" in the content becomes this gateway's address, and tools a collection names are checked live.
import { z } from 'zod';
import { loadContent } from '../../src/content.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Tool, ToolContext } from '../../src/registry/types.js';

export interface CatalogItem {
  slug: string;
  title: string;
  summary: string;
  tools?: string[];
  [field: string]: unknown;
}

export type CatalogName = 'collections' | 'bundles' | 'tutorials' | 'services';

export const CATALOGS: CatalogName[] = ['collections', 'bundles', 'tutorials', 'services'];

/** Replaces {base_url} in every string of a JSON value. */
export function withBase<T>(value: T, base: string): T {
  if (typeof value === 'string') return value.replaceAll('{base_url}', base) as T;
  if (Array.isArray(value)) return value.map((v) => withBase(v, base)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withBase(v, base)])) as T;
  return value;
}

export const catalogItems = (ctx: Pick<ToolContext, 'config'>, name: CatalogName): CatalogItem[] =>
  loadContent<Record<string, CatalogItem[]>>(name, ctx.config.dataDir)[name] ?? [];

/** A tool as a catalogue shows it: how to call it over REST and MCP, or that it is missing here. */
function toolRef(ctx: ToolContext, name: string) {
  const t: Tool | undefined = ctx.services.listTools().find((x) => x.name === name);
  if (!t) return { name, available: false };
  return { name, available: true, title: t.title ?? t.name, toolset: t.toolset, auth: t.auth, description: t.description, mcp: t.expose.mcp };
}

const Slug = z.string().trim().toLowerCase().min(1).max(80).describe('The item slug (from the list).');

export function catalogTools(name: CatalogName, o: { list: string; get: string; what: string; description: string }): Tool[] {
  const url = (ctx: ToolContext, slug: string) => `${ctx.config.baseUrl}/${name}/${slug}`;
  const list = defineTool({
    name: o.list,
    title: `${o.what[0].toUpperCase()}${o.what.slice(1)}`,
    toolset: 'catalog',
    description: o.description,
    input: z.object({}),
    auth: 'public',
    annotations: { readOnlyHint: true },
    handler: (_input, ctx) => {
      const items = catalogItems(ctx, name);
      return {
        [name]: items.map((i) => withBase({ slug: i.slug, title: i.title, summary: i.summary, url: url(ctx, i.slug) }, ctx.config.baseUrl)),
        count: items.length,
      };
    },
  });
  const get = defineTool({
    name: o.get,
    title: `One of the ${o.what}`,
    toolset: 'catalog',
    description: `One item of the ${o.what} by slug (404 for an unknown slug).`,
    input: z.object({ slug: Slug }),
    auth: 'public',
    annotations: { readOnlyHint: true },
    handler: (input, ctx) => {
      const item = catalogItems(ctx, name).find((i) => i.slug === input.slug);
      if (!item) throw new GatewayError('not_found', `No item "${input.slug}" in ${name}; GET /${name} lists them.`);
      const out: Record<string, unknown> = { ...withBase(item, ctx.config.baseUrl), url: url(ctx, item.slug) };
      if (item.tools) out.tools = item.tools.map((t) => toolRef(ctx, t));
      return out;
    },
  });
  return [list, get];
}

export const contentTools: Tool[] = [
  ...catalogTools('collections', {
    list: 'catalog_collections',
    get: 'catalog_collection',
    what: 'curated collections',
    description: 'Curated collections of tools grouped by job to be done (remember, coordinate, pay, automate…).',
  }),
  ...catalogTools('bundles', {
    list: 'catalog_bundles',
    get: 'catalog_bundle',
    what: 'starter bundles',
    description: 'Starter bundles: a set of toolsets with the MCP configuration and first calls for a kind of agent.',
  }),
  ...catalogTools('tutorials', {
    list: 'catalog_tutorials',
    get: 'catalog_tutorial',
    what: 'tutorials',
    description: 'Step-by-step tutorials: resume work with memory, pay per call with x402, watches, the vault, MCP, the wall.',
  }),
  ...catalogTools('services', {
    list: 'catalog_services',
    get: 'catalog_service',
    what: 'productized services',
    description: 'The commercial group at {api_url}: code review, SEO audits, copywriting, content, extraction, dev tasks, with prices.',
  }),
];
