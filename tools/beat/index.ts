// GET /beat/{handle}: the heartbeat. Checking in keeps a streak of consecutive UTC days and answers what
// happened since the last beat: unread notifications, finished jobs and handoffs, and the memory context card.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Db } from '../../src/store/db.js';
import { HandleRef } from '../identity/handles.js';
import { touchAgent } from '../identity/store.js';
import { handoffsResolvedSince } from '../handoffs/store.js';
import { jobsFinishedSince } from '../jobs/store.js';
import { contextCard } from '../memory/overview.js';
import { unreadCount } from '../notifications/store.js';

const DAY = 24 * 3600 * 1000;
const dayOf = (ms: number) => Math.floor(ms / DAY);

/** The agent's streak as it stands, without checking in (null before the first beat). */
export async function streakOf(db: Db, agentId: string, now: number): Promise<{ streak: number; beat_today: boolean } | null> {
  const row = await db.get<{ last_beat_at: number; streak: number }>('SELECT last_beat_at, streak FROM beats WHERE agent_id = ?', [agentId]);
  if (!row) return null;
  const gap = dayOf(now) - dayOf(row.last_beat_at);
  // A streak missed yesterday is already broken, whatever the row still says.
  return { streak: gap <= 1 ? row.streak : 0, beat_today: gap === 0 };
}

async function beat(db: Db, agentId: string, now: number) {
  const prev = await db.get<{ last_beat_at: number; streak: number; longest: number; total: number }>('SELECT last_beat_at, streak, longest, total FROM beats WHERE agent_id = ?', [agentId]);
  let streak = 1;
  if (prev) {
    const gap = dayOf(now) - dayOf(prev.last_beat_at);
    streak = gap === 0 ? prev.streak : gap === 1 ? prev.streak + 1 : 1;
  }
  const longest = Math.max(streak, prev?.longest ?? 0);
  await db.run(
    `INSERT INTO beats (agent_id, last_beat_at, streak, longest, total) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (agent_id) DO UPDATE SET last_beat_at = excluded.last_beat_at, streak = excluded.streak, longest = excluded.longest, total = beats.total + 1`,
    [agentId, now, streak, longest],
  );
  return { previous: prev?.last_beat_at ?? null, streak, longest, total: (prev?.total ?? 0) + 1 };
}

export const heartbeat = defineTool({
  name: 'beat',
  title: 'Heartbeat',
  toolset: 'identity',
  description:
    'Check in: keeps your streak (consecutive UTC days with a beat) and returns last seen, unread notifications, jobs and ' +
    'handoffs finished since your last beat, and your memory context card, so a new session can resume at once.',
  input: z.object({ handle: HandleRef }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: false, idempotentHint: false },
  handler: async (_input, ctx) => {
    const me = ctx.caller.agent!;
    const now = ctx.clock.now();
    const b = await beat(ctx.db, me.id, now);
    const since = b.previous ?? 0;
    const [unread, jobs, handoffs, memory] = await Promise.all([
      unreadCount(ctx.db, me.id),
      jobsFinishedSince(ctx.db, me.id, since),
      handoffsResolvedSince(ctx.db, me.id, since),
      contextCard(ctx),
    ]);
    await touchAgent(ctx.db, me.id, now);
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return {
      handle: me.handle,
      streak: b.streak,
      longest_streak: b.longest,
      beats: b.total,
      last_seen: iso(b.previous),
      now: iso(now),
      unread_notifications: unread,
      since_last_beat: {
        jobs: jobs.map((j) => ({ job_id: j.id, type: j.type, status: j.status, finished_at: iso(j.finished_at) })),
        handoffs: handoffs.map((h) => ({ handoff_id: h.id, status: h.status, resolved_at: iso(h.resolved_at) })),
      },
      memory_context: memory,
    };
  },
});
