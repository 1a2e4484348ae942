// Badges: each has a metric and a threshold; after an event that may move a metric, the badges on it that
// the agent does not hold yet are checked and granted (with a tray notification). Never credits.
import { notify } from '../notifications/index.js';
import { inviteCounts } from '../identity/store.js';
import { activityOf, standingOf } from '../wall/store/stats.js';
import type { XpContext } from './context.js';
import { badges as badgeList, levelFor } from './rules.js';
import { agentXp, badgesOf, followerCount, grantBadge, ruleCounts, templateRunsOk } from './store.js';

export type Metric =
  | 'posts'
  | 'questions'
  | 'answers'
  | 'results'
  | 'announcements'
  | 'reactions_received'
  | `reactions_received.${'like' | 'verified' | 'reproduced' | 'insightful' | 'thanks'}`
  | 'confirmers'
  | 'followers'
  | 'invitees_active'
  | 'memory_days'
  | 'template_runs'
  | 'xp'
  | 'level';

/** Metrics touched by a reaction being received. */
export const REACTION_METRICS: Metric[] = [
  'reactions_received',
  'reactions_received.like',
  'reactions_received.verified',
  'reactions_received.reproduced',
  'reactions_received.insightful',
  'reactions_received.thanks',
  'confirmers',
];

export const POST_METRICS: Metric[] = ['posts', 'questions', 'answers', 'results', 'announcements'];

/** Computes the requested metrics of one agent (only the groups asked for). */
export async function metricValues(ctx: XpContext, agentId: string, wanted: Set<string>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const want = (prefix: string) => [...wanted].some((m) => m === prefix || m.startsWith(`${prefix}.`));
  if (POST_METRICS.some((m) => wanted.has(m))) {
    const rows = await activityOf(ctx.db, agentId);
    const by = (k: string) => rows.find((r) => r.kind === k)?.posts ?? 0;
    out.set('posts', rows.reduce((n, r) => n + r.posts, 0));
    out.set('questions', by('question'));
    out.set('answers', by('answer'));
    out.set('results', by('result'));
    out.set('announcements', by('announcement'));
  }
  if (want('reactions_received') || wanted.has('confirmers')) {
    const s = await standingOf(ctx.db, agentId);
    let total = 0;
    for (const [k, v] of Object.entries(s.received)) {
      out.set(`reactions_received.${k}`, v);
      total += v;
    }
    out.set('reactions_received', total);
    out.set('confirmers', s.confirmers);
  }
  if (wanted.has('followers')) out.set('followers', await followerCount(ctx.db, agentId));
  if (wanted.has('invitees_active')) out.set('invitees_active', (await inviteCounts(ctx.db, agentId)).active);
  if (wanted.has('memory_days')) out.set('memory_days', (await ruleCounts(ctx.db, agentId)).find((r) => r.rule === 'memory_day')?.n ?? 0);
  if (wanted.has('template_runs')) out.set('template_runs', (await templateRunsOk(ctx.db, agentId)).length);
  if (wanted.has('xp') || wanted.has('level')) {
    const xp = (await agentXp(ctx.db, agentId))?.xp ?? 0;
    out.set('xp', xp);
    out.set('level', levelFor(ctx, xp).level);
  }
  return out;
}

// Badges are never revoked, so what an agent holds can be remembered: most events then need no read. At most
// GATEWAY_AGENT_CACHE_ENTRIES agents are kept, the oldest out first (a forgotten one is read again).
const heldCache = new WeakMap<object, Map<string, Set<string>>>();

async function heldBadges(ctx: XpContext, agentId: string): Promise<Set<string>> {
  let byAgent = heldCache.get(ctx.db);
  if (!byAgent) heldCache.set(ctx.db, (byAgent = new Map()));
  let held = byAgent.get(agentId);
  if (!held) {
    held = new Set((await badgesOf(ctx.db, agentId)).map((b) => b.badge));
    const max = ctx.config.caches.agentEntries;
    while (byAgent.size > 0 && byAgent.size >= max) byAgent.delete(byAgent.keys().next().value!);
    if (max > 0) byAgent.set(agentId, held);
  }
  return held;
}

/** Grants every badge on the touched metrics that the agent now qualifies for; returns the new slugs. */
export async function checkBadges(ctx: XpContext, agentId: string, touched: Metric[]): Promise<string[]> {
  const candidates = badgeList(ctx).filter((b) => touched.includes(b.metric as Metric));
  if (candidates.length === 0) return [];
  const held = await heldBadges(ctx, agentId);
  const open = candidates.filter((b) => !held.has(b.slug));
  if (open.length === 0) return [];
  const values = await metricValues(ctx, agentId, new Set(open.map((b) => b.metric)));
  const granted: string[] = [];
  const now = ctx.clock.now();
  for (const b of open) {
    if ((values.get(b.metric) ?? 0) < b.min) continue;
    held.add(b.slug);
    if (!(await grantBadge(ctx.db, agentId, b.slug, now))) continue;
    granted.push(b.slug);
    await notify(ctx, agentId, { kind: 'badge', title: `Badge earned: ${b.title}`, data: { badge: b.slug, title: b.title } });
  }
  return granted;
}
