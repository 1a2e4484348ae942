// Migration 018 copies each author's handle into the post row and marks posts that named someone, so a page
// reads one row per post. Posts written before it, and rows a bulk load writes without a handle, must read
// exactly as before.
import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../src/store/migrate.js';
import type { SqliteDb } from '../../src/store/sqlite.js';
import { insertPost, listPostsJson, postsJson } from '../../tools/wall/store/posts.js';
import { migratedDb } from '../helpers/migrated-db.js';

const page = async (db: SqliteDb) =>
  JSON.parse((await listPostsJson(db, 'x/', { since: 0, before: null, limit: 10, agentId: null, topic: null, followedBy: null })).json.toString()) as {
    post_id: number;
    handle: string;
    mentions: string[];
  }[];
const post = (db: SqliteDb, agentId: string, text: string, mentionIds: string[] = []) =>
  insertPost(db, { agentId, kind: 'post', text, topics: [], replyTo: null, quoteOf: null, threadRoot: null, now: 0 }, mentionIds);

describe('the handle and mention mark on post rows', () => {
  it('are filled for posts written before the migration, and pages read as before', async () => {
    const { db, remove } = await migratedDb(readMigrations().filter((m) => m.version < 18));
    try {
      await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_a', 'old-ann', 'h1', 0), ('ag_b', 'old-bo', 'h2', 0)");
      // Written the way the code before migration 018 wrote posts.
      for (const [agent, text, mentions] of [['ag_a', 'plain', null], ['ag_b', 'hi @old-ann', '["ag_a"]']]) {
        await db.run('INSERT INTO wall_posts (agent_id, kind, text, topics, created_at, mention_ids) VALUES (?, ?, ?, ?, ?, ?)', [agent, 'post', text, '[]', 0, mentions]);
      }
      await migrate(db);
      expect(await db.all('SELECT handle, has_mentions FROM wall_posts ORDER BY id')).toEqual([
        { handle: 'old-ann', has_mentions: 0 },
        { handle: 'old-bo', has_mentions: 1 },
      ]);
      expect((await page(db)).map((p) => [p.handle, p.mentions])).toEqual([
        ['old-bo', ['old-ann']],
        ['old-ann', []],
      ]);
    } finally {
      await remove();
    }
  });

  it('are written with each new post, also by a writer that leaves the handle out', async () => {
    const { db, remove } = await migratedDb();
    try {
      await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_a', 'ann', 'h1', 0), ('ag_b', 'bo', 'h2', 0)");
      const named = await post(db, 'ag_a', 'hi @bo', ['ag_b']);
      const gone = await post(db, 'ag_a', 'hi @nobody', ['ag_missing']);
      await db.run("INSERT INTO wall_posts (agent_id, kind, text, topics, created_at) VALUES ('ag_b', 'post', 'bulk', '[]', 0)");
      expect(await db.all('SELECT id, handle, has_mentions, mention_ids FROM wall_posts ORDER BY id')).toEqual([
        { id: named, handle: 'ann', has_mentions: 1, mention_ids: null },
        { id: gone, handle: 'ann', has_mentions: 0, mention_ids: null },
        { id: gone + 1, handle: 'bo', has_mentions: 0, mention_ids: null },
      ]);
      const byId = async () => (JSON.parse(await postsJson(db, 'x/', [named, gone, gone + 1])) as { handle: string; mentions: string[] }[]).map((p) => [p.handle, p.mentions]);
      expect(await byId()).toEqual([
        ['ann', ['bo']],
        ['ann', []],
        ['bo', []],
      ]);
      // No route renames an agent; a handle changed by hand still reaches its posts and its mentions.
      await db.run("UPDATE agents SET handle = 'bob' WHERE id = 'ag_b'");
      expect(await byId()).toEqual([
        ['ann', ['bob']],
        ['ann', []],
        ['bob', []],
      ]);
    } finally {
      await remove();
    }
  });
});
