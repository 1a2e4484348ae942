// The wall indexer on PostgreSQL, where posts are written side by side (issue 25): a post whose id was handed out
// before a higher one's but which commits after it is still indexed. The batch's ceiling waits for posts in flight
// (tools/wall/store/posts.ts, indexBatch); were it to read past them, the mark would move beyond the late post and
// it would never reach the search or topic indexes. Needs a PostgreSQL server (skipped when none is installed).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/store/pg-migrate.js';
import { PgDb } from '../../src/store/postgres.js';
import { indexBatch, insertPost, type NewPost } from '../../tools/wall/store/posts.js';
import { storeEnv, tempDir } from '../helpers/gateway.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const dir = tempDir();
let server: TestPostgres | undefined;
let db: PgDb;

describe.skipIf(!hasPostgres)('wall indexer on PostgreSQL', () => {
  beforeAll(async () => {
    let url = storeEnv(dir).GATEWAY_DATABASE_URL;
    if (!url) {
      server = await startPostgres();
      url = await server.createDatabase('wall_index');
    }
    db = await PgDb.open(url, { max: 4 });
    await migratePostgres(db);
    await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_a', 'alice', 'h1', 0), ('ag_b', 'bob', 'h2', 0)");
  });
  afterAll(async () => {
    await db?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (agentId: string, text: string): NewPost => ({ agentId, kind: 'post', text, topics: ['order'], replyTo: null, quoteOf: null, threadRoot: null, now: Date.now() });
  const settled = async (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 150))]);

  it('indexes a post that commits after a higher one, waiting for it rather than skipping it', async () => {
    // A trigger of the test's own, fired after a post has its id and before the wall's triggers (they run in name
    // order), holds the post marked 'early' for a while: a post with a higher id commits meanwhile.
    await db.exec(`CREATE FUNCTION test_hold_early() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.text = 'early' THEN PERFORM pg_sleep(0.6); END IF; RETURN NULL; END $$;
      CREATE TRIGGER aaa_test_hold_early AFTER INSERT ON wall_posts FOR EACH ROW EXECUTE FUNCTION test_hold_early()`);
    const early = insertPost(db, post('ag_a', 'early'));
    await new Promise((r) => setTimeout(r, 150));
    const late = await insertPost(db, post('ag_b', 'late but committed first'));
    const batch = indexBatch(db, 200);
    expect(await settled(batch)).toBe(false); // the ceiling waits for the early post
    const earlyId = await early;
    expect(earlyId).toBeLessThan(late);
    expect(await batch).toBe(2);
    const indexed = (await db.all<{ post_id: number }>("SELECT post_id FROM wall_post_topics WHERE topic = 'order' ORDER BY post_id")).map((r) => r.post_id);
    expect(indexed).toEqual([earlyId, late]);
    expect((await db.get<{ n: number }>("SELECT n FROM wall_counters WHERE name = 'fts_indexed'"))!.n).toBe(late);
    expect(await indexBatch(db, 200)).toBe(0);
  });
});
