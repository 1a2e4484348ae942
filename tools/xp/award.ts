// Awarding XP: each award is a ledger row at most once per (agent, rule, ref); points come from the rules
// file. When an invited agent earns its first XP, its inviter earns `invitee_active` in the same transaction.
import { createHash } from 'node:crypto';
import type { Db } from '../../src/store/db.js';
import { pointsFor } from './rules.js';
import { agentXp, appendLedger, awardKey, existingAwards, type LedgerItem } from './store.js';
import { checkBadges, type Metric } from './badges.js';
import type { XpContext } from './context.js';

export interface Award {
  rule: string;
  /** What makes the award unique for the agent (a day, a post id); '' for once-only rules. */
  ref?: string;
}

/** A reference to another agent that stays meaningless once that agent is gone (ledgers keep no ids). */
export const digestRef = (agentId: string): string => createHash('sha256').update(`xp:${agentId}`).digest('hex').slice(0, 16);

export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

// Awards known to be in the ledger already, so repeat events (every post of the day) skip the database. At most
// GATEWAY_AGENT_CACHE_ENTRIES are kept, the oldest out first: a forgotten one costs one read when it comes again.
const known = new WeakMap<Db, Set<string>>();

function knownSet(db: Db): Set<string> {
  let s = known.get(db);
  if (!s) known.set(db, (s = new Set()));
  return s;
}

function remember(ctx: XpContext, agentId: string, keys: string[]): void {
  const s = knownSet(ctx.db);
  const max = ctx.config.caches.agentEntries;
  for (const k of keys) {
    if (max === 0) return;
    while (s.size >= max) s.delete(s.values().next().value!);
    s.add(`${agentId}\u001e${k}`);
  }
}

/** Metrics an award can move, for the badge check that follows it. */
const metricsOf = (rule: string): Metric[] =>
  rule === 'memory_day' ? ['memory_days'] : rule === 'template_run' ? ['template_runs'] : [];

/**
 * Awards XP for the given events; returns what was newly appended. Unknown rules and rules worth 0 are
 * skipped. Badges whose metric may have moved are checked afterwards (for the inviter too).
 */
export async function award(ctx: XpContext, agentId: string, awards: Award[]): Promise<LedgerItem[]> {
  const cache = knownSet(ctx.db);
  let items: LedgerItem[] = awards
    .map((a) => ({ rule: a.rule, ref: a.ref ?? '', points: pointsFor(ctx, a.rule) }))
    .filter((i) => i.points > 0 && !cache.has(`${agentId}\u001e${awardKey(i.rule, i.ref)}`));
  if (items.length === 0) return [];
  // A cheap read first: most events repeat an award the agent already has.
  const have = await existingAwards(ctx.db, agentId, items);
  remember(ctx, agentId, [...have]);
  items = items.filter((i) => !have.has(awardKey(i.rule, i.ref)));
  if (items.length === 0) return [];
  const now = ctx.clock.now();
  const { added, inviters } = await ctx.db.transaction(async (tx) => {
    const inviters: string[] = [];
    const before = await agentXp(tx, agentId);
    if (!before) return { added: [] as LedgerItem[], inviters };
    const added = await appendLedger(ctx.db.dialect, tx, agentId, items, now);
    // Activation walks up the invite chain: an inviter at 0 XP becomes active by this award too.
    let invitee = agentId;
    let was = before;
    let gained = added.reduce((n, a) => n + a.points, 0);
    const points = pointsFor(ctx, 'invitee_active');
    // An invitee becoming active counts for its inviter's introducer badge even when the rule is worth no XP.
    if (before.xp <= 0 && gained > 0 && before.invited_by && points <= 0) inviters.push(before.invited_by);
    for (let depth = 0; depth < 5 && was.xp <= 0 && gained > 0 && was.invited_by && points > 0; depth++) {
      const inviter = was.invited_by;
      const prev = await agentXp(tx, inviter);
      if (!prev) break;
      const got = await appendLedger(ctx.db.dialect, tx, inviter, [{ rule: 'invitee_active', ref: digestRef(invitee), points }], now);
      if (got.length) inviters.push(inviter);
      invitee = inviter;
      was = prev;
      gained = got.length ? points : 0;
    }
    return { added, inviters };
    // Keyed by the agent: its awards are serialised, and the inviters' rows it touches are guarded by the
    // ledger's uniqueness (one invitee_active per invitee), not by reading first.
  }, { lockKey: `xp:${agentId}` });
  remember(ctx, agentId, items.map((i) => awardKey(i.rule, i.ref)));
  if (added.length) await checkBadges(ctx, agentId, ['xp', 'level', ...added.flatMap((a) => metricsOf(a.rule))]);
  for (const inv of inviters) await checkBadges(ctx, inv, ['xp', 'level', 'invitees_active']);
  return added;
}
