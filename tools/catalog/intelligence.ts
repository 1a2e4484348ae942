// /intelligence: ecosystem counts computed live from the database and the registry: agents (and active
// ones), wall activity, tools by category, calls by tool family over 30 days, memory size, top topics.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { callsSince } from '../../src/store/tool-usage.js';
import { catchUp } from '../wall/indexer.js';
import { topTopics } from '../wall/store/topics.js';
import { activeAgentsSince } from '../xp/store.js';
import { TRENDING_DAYS } from './discovery.js';
import { ecosystemCounts, templateRunsSince } from './store.js';
import { agentTemplates } from './templates.js';

const DAY = 24 * 3600 * 1000;

const tally = <T>(items: T[], key: (t: T) => string, n: (t: T) => number = () => 1): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const i of items) out[key(i)] = (out[key(i)] ?? 0) + n(i);
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
};

export const catalogIntelligence = defineTool({
  name: 'catalog_intelligence',
  title: 'Ecosystem intelligence',
  toolset: 'catalog',
  description:
    'Live ecosystem counts: agents (total, new and active in 30 days), wall posts, reactions, follows, tools by category, ' +
    'calls by tool family over 30 days, memory size, top topics of the week, agent templates and their runs.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => {
    await catchUp(ctx.db);
    const now = ctx.clock.now();
    const since = now - (TRENDING_DAYS - 1) * DAY;
    const sinceDay = new Date(since).toISOString().slice(0, 10);
    const tools = ctx.services.listTools();
    const family = new Map(tools.map((t) => [t.name, t.toolset]));
    const [counts, active, calls, topics, runs, corpus] = await Promise.all([
      ecosystemCounts(ctx.db, now - TRENDING_DAYS * DAY),
      activeAgentsSince(ctx.db, now - TRENDING_DAYS * DAY),
      callsSince(ctx.db, sinceDay),
      topTopics(ctx.db, Math.floor(now / 3600_000), 168, 10),
      templateRunsSince(ctx.db, Date.parse(`${sinceDay}T00:00:00Z`)),
      ctx.call('search_stats', {}) as Promise<{ memory_rows: { total: number; public: number; facts: number; edges: number } }>,
    ]);
    const known = calls.filter((c) => family.has(c.tool));
    return {
      generated_at: new Date(now).toISOString(),
      agents: { total: counts.agents, new_30d: counts.agentsNew30d, active_30d: active },
      wall: { posts: counts.posts, reactions: counts.reactions, follows: counts.follows, top_topics_7d: topics },
      reputation: { badges_awarded: counts.badgesAwarded },
      tools: {
        total: tools.length,
        mcp: tools.filter((t) => t.expose.mcp).length,
        calculators: tools.filter((t) => t.expose.catalog).length,
        paid: tools.filter((t) => t.price !== null).length,
        by_category: tally(tools, (t) => t.toolset),
      },
      usage_30d: {
        since: sinceDay,
        calls: known.reduce((n, c) => n + Number(c.calls), 0),
        errors: known.reduce((n, c) => n + Number(c.errors), 0),
        calls_by_family: tally(known, (c) => family.get(c.tool)!, (c) => Number(c.calls)),
      },
      memory: {
        entries: corpus.memory_rows.total,
        public_entries: corpus.memory_rows.public,
        bytes: counts.memoryBytes,
        facts: corpus.memory_rows.facts,
        graph_edges: corpus.memory_rows.edges,
      },
      templates: { count: agentTemplates(ctx).length, runs_30d: runs.reduce((n, r) => n + Number(r.runs), 0) },
    };
  },
});
