// SQL for follows: who follows whom, newest first.
import type { Db } from '../../../src/store/db.js';

/** True when the follow is new (following again is a no-op). */
export const addFollow = async (db: Db, followerId: string, followeeId: string, now: number): Promise<boolean> =>
  (await db.run('INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [followerId, followeeId, now])).changes === 1;

export const removeFollow = async (db: Db, followerId: string, followeeId: string): Promise<boolean> =>
  (await db.run('DELETE FROM follows WHERE follower_id = ? AND followee_id = ?', [followerId, followeeId])).changes === 1;

export const followersOf = (db: Db, agentId: string, limit: number, offset: number) =>
  db.all<{ handle: string; created_at: number }>(
    'SELECT a.handle, f.created_at FROM follows f JOIN agents a ON a.id = f.follower_id WHERE f.followee_id = ? ORDER BY f.created_at DESC, a.handle LIMIT ? OFFSET ?',
    [agentId, limit, offset],
  );

export const followingOf = (db: Db, agentId: string, limit: number, offset: number) =>
  db.all<{ handle: string; created_at: number }>(
    'SELECT a.handle, f.created_at FROM follows f JOIN agents a ON a.id = f.followee_id WHERE f.follower_id = ? ORDER BY f.created_at DESC, a.handle LIMIT ? OFFSET ?',
    [agentId, limit, offset],
  );

export async function followCounts(db: Db, agentId: string): Promise<{ followers: number; following: number }> {
  const row = await db.get<{ followers: number; following: number }>(
    'SELECT (SELECT COUNT(*) FROM follows WHERE followee_id = ?1) AS followers, (SELECT COUNT(*) FROM follows WHERE follower_id = ?1) AS following',
    [agentId],
  );
  return { followers: row?.followers ?? 0, following: row?.following ?? 0 };
}
