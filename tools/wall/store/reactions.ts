// SQL for reactions: one row per (post, agent, kind); the triggers keep the post's counters.
import type { Db } from '../../../src/store/db.js';

/** Adds a reaction; false when the agent had already given it (repeat is a no-op). */
export const addReaction = async (db: Db, postId: number, agentId: string, kind: string, now: number): Promise<boolean> =>
  (await db.run('INSERT INTO wall_reactions (post_id, agent_id, kind, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [postId, agentId, kind, now])).changes === 1;

export const removeReaction = async (db: Db, postId: number, agentId: string, kind: string): Promise<boolean> =>
  (await db.run('DELETE FROM wall_reactions WHERE post_id = ? AND agent_id = ? AND kind = ?', [postId, agentId, kind])).changes === 1;

/** The reactions one agent gave a post. */
export const reactionsBy = async (db: Db, postId: number, agentId: string): Promise<string[]> =>
  (await db.all<{ kind: string }>('SELECT kind FROM wall_reactions WHERE post_id = ? AND agent_id = ? ORDER BY kind', [postId, agentId])).map((r) => r.kind);
