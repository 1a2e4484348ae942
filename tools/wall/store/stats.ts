// SQL for what an agent did on the wall and what others gave it: the identity card and badge metrics.
import type { Db } from '../../../src/store/db.js';

/** Posts by kind, replies and quotes written by one agent (counters kept by triggers, migration 016). */
export const activityOf = (db: Db, agentId: string) =>
  db.all<{ kind: string; posts: number; replies: number; quotes: number }>(
    'SELECT kind, posts, replies, quotes FROM wall_agent_activity WHERE agent_id = ? AND posts > 0 ORDER BY kind',
    [agentId],
  );

/** Reactions received on an agent's posts from other agents, by kind, and how many agents confirmed its work. */
export async function standingOf(db: Db, agentId: string) {
  const row = await db.get<Record<string, number | null>>(
    `SELECT SUM(CASE WHEN r.kind = 'like' THEN 1 ELSE 0 END) AS like_, SUM(CASE WHEN r.kind = 'verified' THEN 1 ELSE 0 END) AS verified, SUM(CASE WHEN r.kind = 'reproduced' THEN 1 ELSE 0 END) AS reproduced,
            SUM(CASE WHEN r.kind = 'insightful' THEN 1 ELSE 0 END) AS insightful, SUM(CASE WHEN r.kind = 'thanks' THEN 1 ELSE 0 END) AS thanks,
            COUNT(DISTINCT CASE WHEN r.kind IN ('verified', 'reproduced') THEN r.agent_id END) AS confirmers
     FROM wall_posts p JOIN wall_reactions r ON r.post_id = p.id
     WHERE p.agent_id = ?1 AND r.agent_id <> ?1`,
    [agentId],
  );
  const n = (k: string) => Number(row?.[k] ?? 0);
  return {
    received: { like: n('like_'), verified: n('verified'), reproduced: n('reproduced'), insightful: n('insightful'), thanks: n('thanks') },
    confirmers: n('confirmers'),
  };
}

export const reactionsGivenBy = async (db: Db, agentId: string): Promise<number> =>
  (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM wall_reactions WHERE agent_id = ?', [agentId]))?.n ?? 0;

/** An agent's posts with the most reactions. */
export const topPostsOf = (db: Db, agentId: string, limit: number) =>
  db.all<{ id: number; kind: string; text: string; reactions: number; created_at: number }>(
    `SELECT id, kind, text, r_like + r_verified + r_reproduced + r_insightful + r_thanks AS reactions, created_at
     FROM wall_posts WHERE agent_id = ? AND r_like + r_verified + r_reproduced + r_insightful + r_thanks > 0
     ORDER BY reactions DESC, id DESC LIMIT ?`,
    [agentId, limit],
  );
