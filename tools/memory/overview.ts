// An agent's memory at a glance: usage stats, and the cached context card for resuming work.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { storageUsed } from '../../src/store/storage-budget.js';
import type { ToolContext } from '../../src/registry/types.js';
import { HandleRef } from '../identity/handles.js';
import { limitParam, OwnerHandle } from './limits.js';
import { runMemorySearch } from './ranked-search.js';
import { readCounts } from './reads.js';
import { sharedWith } from './store/acl.js';
import * as ov from './store/overview.js';
import { iso } from './shape.js';

export const memoryStats = defineTool({
  name: 'memory_stats',
  title: 'Memory usage',
  toolset: 'memory',
  description:
    'Your memory usage: entries, bytes, namespaces, versions kept, shares given and received, facts; and your storage budget, used and left (everything you store counts against it: memory and its versions, artifacts, vault, posts, mail and the rest).',
  input: z.object({ handle: OwnerHandle }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => {
    const id = ctx.caller.agent!.id;
    const [s, used] = await Promise.all([ov.statsOf(ctx.db, id, ctx.clock.now()), storageUsed(ctx.db, id)]);
    const limit = ctx.config.storageBudget.bytesPerOwner;
    return {
      handle: ctx.caller.agent!.handle,
      entries: s.entries ?? 0,
      bytes: s.bytes ?? 0,
      namespaces: s.namespaces ?? 0,
      versions: s.versions ?? 0,
      shares: s.shares ?? 0,
      shared_with_me: s.shared_with_me ?? 0,
      facts: s.facts ?? 0,
      limits: { max_entries: ctx.config.memory.maxEntriesPerAgent, max_value_bytes: ctx.config.memory.maxValueBytes, versions_kept: ctx.config.memory.versionsKept },
      // As the budget counts (rows at their bytes and a fixed overhead each): what a write is refused against.
      storage: { used_bytes: used, limit_bytes: limit, remaining_bytes: Math.max(0, limit - used) },
    };
  },
});

const PREVIEW = 160;
const preview = (value: string) => (value.length > PREVIEW ? `${value.slice(0, PREVIEW)}…` : value);
const brief = (r: ov.CardRow) => ({ namespace: r.namespace, key: r.key, version: r.version, updated_at: iso(r.updated_at), preview: preview(r.value), tags: JSON.parse(r.tags) as string[] });

type Card = Awaited<ReturnType<typeof buildCard>>;
/** A card with the owner's latest change-feed position when it was built: another gateway instance (or process)
 * writing to the same database moves it, and the card is built again. */
interface CachedCard {
  card: Card;
  seq: number;
}
const cards = new WeakMap<object, Map<string, CachedCard>>();

function cacheFor(ctx: ToolContext): Map<string, CachedCard> {
  let m = cards.get(ctx.db);
  if (!m) {
    const fresh = new Map<string, CachedCard>();
    cards.set(ctx.db, fresh);
    // Any write to an owner's memory (or an expiry sweep: ownerId null) makes its card stale.
    ctx.services.bus.on('memory:changed', ({ ownerId }) => (ownerId ? fresh.delete(ownerId) : fresh.clear()));
    m = fresh;
  }
  return m;
}

async function buildCard(ctx: ToolContext, agentId: string, handle: string) {
  const now = ctx.clock.now();
  const counts = readCounts(ctx);
  const [recent, pinned, open, namespaces] = await Promise.all([
    ov.recentEntries(ctx.db, agentId, now, 10),
    ov.pinnedEntries(ctx.db, agentId, now, 10),
    ov.openItems(ctx.db, agentId, now, 20),
    ov.namespacesOf(ctx.db, agentId, now),
  ]);
  const topIds = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 200).map(([id]) => id);
  const used = await ov.entriesByIds(ctx.db, topIds);
  const mine = new Set(namespaces.map((n) => n.namespace));
  const mostUsed = used
    .filter((r) => mine.has(r.namespace))
    .sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0))
    .slice(0, 5)
    .map((r) => ({ ...brief(r), reads: counts.get(r.id) ?? 0 }));
  return {
    handle,
    generated_at: iso(now),
    pinned: pinned.map(brief),
    recent: recent.map(brief),
    most_used: mostUsed,
    open_items: open.map(brief),
    namespaces: namespaces.map((n) => ({ namespace: n.namespace, entries: n.entries, updated_at: iso(n.updated_at) })),
  };
}

/** What others share with the agent now: read with every card, since another owner's share or revocation moves no seq of the agent's. */
const sharedWithMe = async (ctx: ToolContext, agentId: string) =>
  (await sharedWith(ctx.db, agentId)).map((s) => ({ owner: s.owner, namespace: s.namespace, permission: s.permission }));

/** The context card of the calling agent (cached until its memory changes, here or on another instance; its shares read each time). */
export async function contextCard(ctx: ToolContext): Promise<Card & { shared_with_me: Awaited<ReturnType<typeof sharedWithMe>>; cached: boolean }> {
  const me = ctx.caller.agent!;
  const cache = cacheFor(ctx);
  const hit = cache.get(me.id);
  const [seq, shared_with_me] = await Promise.all([ov.latestChange(ctx.db, me.id), sharedWithMe(ctx, me.id)]);
  if (hit && hit.seq === seq) {
    // Re-inserted: the Map runs from the card read least recently to the latest.
    cache.delete(me.id);
    cache.set(me.id, hit);
    return { ...hit.card, shared_with_me, cached: true };
  }
  const card = await buildCard(ctx, me.id, me.handle);
  // At most GATEWAY_MEMORY_CARD_CACHE cards, the least recently read out first (it is built again when read).
  const max = ctx.config.caches.memoryCards;
  cache.delete(me.id);
  while (cache.size > 0 && cache.size >= max) cache.delete(cache.keys().next().value!);
  if (max > 0) cache.set(me.id, { card, seq });
  return { ...card, shared_with_me, cached: false };
}

export const memoryContext = defineTool({
  name: 'memory_context',
  title: 'Context card',
  toolset: 'memory',
  description:
    'A context card for resuming work: pinned entries, recent entries, most used, open items (tagged todo/open/task or ' +
    'status open/todo/in_progress/blocked), namespaces and what others shared with you. Cached; any write refreshes it. ' +
    'Given a question or task in plain language (q), it also lists the entries most relevant to it (relevant), each ' +
    'with its time and the entries written just before and after it.',
  input: z.object({
    handle: HandleRef,
    q: z.string().max(500).optional().describe('The question or task at hand, in plain language: adds the most relevant entries.'),
    limit: limitParam(100, 5),
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const card = await contextCard(ctx);
    if (!input.q?.trim()) return card;
    const relevant = await runMemorySearch(ctx, { q: input.q, limit: input.limit, match: 'any', neighbors: 1, order: 'time' });
    return { ...card, relevant };
  },
});

/** MCP resources/list: the caller's entries as memory://{handle}/{namespace}/{key} (most recent first). */
export const memoryResources = defineTool({
  name: 'memory_resources',
  title: 'Memory as MCP resources',
  toolset: 'memory',
  description: 'Your most recently written entries as MCP resource descriptors (memory://{handle}/{namespace}/{key}).',
  input: z.object({ limit: z.number().int().min(1).max(500).default(200) }),
  auth: 'optional_owner',
  expose: { mcp: false },
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent;
    if (!me) return { resources: [] };
    const rows = await ov.recentEntries(ctx.db, me.id, ctx.clock.now(), input.limit);
    return {
      resources: rows.map((r) => ({
        uri: `memory://${me.handle}/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.key)}`,
        name: `${r.namespace}/${r.key}`,
        description: `Version ${r.version}, updated ${iso(r.updated_at)}`,
        mimeType: 'application/json',
      })),
    };
  },
});

export const overviewTools = [memoryStats, memoryContext, memoryResources];
