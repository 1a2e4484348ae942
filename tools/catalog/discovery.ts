// /new and /trending: the newest tools and listings (by when this gateway first listed them) and what is
// used most over the last 30 days (real per-tool call counts and template runs).
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import type { Db } from '../../src/store/db.js';
import { callsSince } from '../../src/store/tool-usage.js';
import { CATALOGS, catalogItems } from './content.js';
import { firstSeen, noteSeen, templateRunsSince } from './store.js';
import { agentTemplates } from './templates.js';

const DAY = 24 * 3600 * 1000;
export const TRENDING_DAYS = 30;

interface Listing {
  kind: string;
  name: string;
  title: string;
  summary: string;
  url: string;
}

/** Kind order for items first seen at the same moment: listings before tools. */
const KIND_ORDER = ['template', 'service', 'bundle', 'collection', 'tutorial', 'tool'];

function listings(ctx: ToolContext): Listing[] {
  const base = ctx.config.baseUrl;
  const out: Listing[] = agentTemplates(ctx).map((t) => ({ kind: 'template', name: t.slug, title: t.title, summary: t.summary, url: `${base}/agents/templates/${t.slug}` }));
  for (const c of CATALOGS) {
    const kind = c.slice(0, -1);
    for (const i of catalogItems(ctx, c)) out.push({ kind, name: i.slug, title: i.title, summary: i.summary, url: `${base}/${c}/${i.slug}` });
  }
  for (const t of ctx.services.listTools()) {
    if (!t.expose.mcp && !t.expose.catalog) continue;
    out.push({ kind: 'tool', name: t.name, title: t.title ?? t.name, summary: t.description, url: t.expose.catalog ? `${base}/tools/${t.name}` : `${base}/mcp` });
  }
  return out;
}

// Items already recorded in this process, so /new writes only when something appeared.
const recorded = new WeakMap<Db, Set<string>>();

export const catalogNew = defineTool({
  name: 'catalog_new',
  title: 'New tools and listings',
  toolset: 'catalog',
  description: 'The newest tools and listings (agent templates, services, bundles, collections, tutorials), by when this gateway first listed them.',
  input: z.object({ limit: numberInput(z.number().int().min(1).max(100)).default(20).describe('How many (1-100, default 20).') }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const items = listings(ctx);
    let seen = recorded.get(ctx.db);
    if (!seen) recorded.set(ctx.db, (seen = new Set()));
    const fresh = items.filter((i) => !seen.has(`${i.kind}:${i.name}`));
    if (fresh.length) {
      await noteSeen(ctx.db, fresh.map((i) => ({ kind: i.kind, name: i.name })), ctx.clock.now());
      for (const i of fresh) seen.add(`${i.kind}:${i.name}`);
    }
    const at = new Map((await firstSeen(ctx.db)).map((r) => [`${r.kind}:${r.name}`, r.first_seen_at]));
    const ranked = items
      .map((i) => ({ ...i, first_seen_at: at.get(`${i.kind}:${i.name}`) ?? ctx.clock.now() }))
      .sort((a, b) => b.first_seen_at - a.first_seen_at || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.name.localeCompare(b.name));
    return { items: ranked.slice(0, input.limit).map((i) => ({ ...i, first_seen_at: new Date(i.first_seen_at).toISOString() })), total: items.length };
  },
});

export const catalogTrending = defineTool({
  name: 'catalog_trending',
  title: 'Trending tools and templates',
  toolset: 'catalog',
  description:
    `Tools and agent templates ranked by successful calls over the last ${TRENDING_DAYS} days (real per-day usage counts; template ` +
    'runs count as calls). Failed calls (refused, invalid, unauthenticated) are shown as errors but never rank an item.',
  input: z.object({ limit: numberInput(z.number().int().min(1).max(100)).default(20).describe('How many (1-100, default 20).') }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const now = ctx.clock.now();
    const since = now - (TRENDING_DAYS - 1) * DAY;
    const sinceDay = new Date(since).toISOString().slice(0, 10);
    const tools = new Map(ctx.services.listTools().map((t) => [t.name, t]));
    const [calls, runs] = await Promise.all([callsSince(ctx.db, sinceDay), templateRunsSince(ctx.db, Date.parse(`${sinceDay}T00:00:00Z`))]);
    const titles = new Map(agentTemplates(ctx).map((t) => [t.slug, t.title]));
    const items = [
      ...calls.filter((c) => tools.has(c.tool)).map((c) => ({ kind: 'tool', name: c.tool, title: tools.get(c.tool)!.title ?? c.tool, toolset: tools.get(c.tool)!.toolset, calls: Number(c.calls), errors: Number(c.errors) })),
      ...runs.filter((r) => titles.has(r.slug)).map((r) => ({ kind: 'template', name: r.slug, title: titles.get(r.slug)!, toolset: 'catalog', calls: Number(r.runs), errors: Number(r.runs) - Number(r.ok) })),
    ];
    // Ranked by calls that worked: anyone can make failing calls (401s cost nothing), so they must not lift a tool.
    const ranked = items
      .map((i) => ({ ...i, succeeded: i.calls - i.errors }))
      .filter((i) => i.succeeded > 0)
      .sort((a, b) => b.succeeded - a.succeeded || a.name.localeCompare(b.name));
    return {
      window_days: TRENDING_DAYS,
      since: sinceDay,
      items: ranked.slice(0, input.limit).map((i, n) => ({ rank: n + 1, ...i })),
    };
  },
});
