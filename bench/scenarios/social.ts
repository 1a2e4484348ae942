// Issue 8 targets, with 1,000,000 posts from 10,000 agents: GET /wall?limit=50 and GET /wall?topic= p99
// ≤ 15 ms, /topics ≤ 30 ms, posting ≥ 1,500/s at 20 connections. The wall is seeded straight into a
// database file through the real schema; derived tables (topic rows, hourly counts, search index) are
// built in bulk with the same rules the triggers apply one post at a time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { SqliteDb } from '../../src/store/sqlite.js';
import { migrate } from '../../src/store/migrate.js';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import { baseline } from '../lib/baseline.js';
import { load, table, type LoadResult } from '../lib/cannon.js';
import { rng, sentence, word } from '../lib/corpus.js';
import { startGateway } from '../lib/processes.js';
import { pruneTopicCounts } from '../../tools/wall/store/topics.js';
import { staleCount } from '../../tools/wall/store/topic-pages.js';

const AGENTS = Number(process.env.BENCH_SOCIAL_AGENTS ?? 10_000);
const POSTS = Number(process.env.BENCH_SOCIAL_POSTS ?? 1_000_000);
const DAYS = 30;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

/** Topics of a seeded post: 0 to 2 words of the corpus vocabulary (Zipf-like, so a few are hot). */
function topicsFor(rand: () => number): string[] {
  const n = rand() < 0.2 ? 0 : rand() < 0.6 ? 1 : 2;
  return [...new Set(Array.from({ length: n }, () => word(rand)))];
}

/** Seeds agents, posts (10% replies), XP and badges; returns the agents' secrets. */
export async function seedWall(dir: string): Promise<{ secrets: string[]; ms: number }> {
  const t0 = performance.now();
  const db = await SqliteDb.open(path.join(dir, 'gateway.db'));
  await migrate(db);
  const now = Date.now();
  const secrets: string[] = [];
  await db.transaction(async (tx) => {
    for (let i = 0; i < AGENTS; i++) {
      const s = newSecret();
      secrets.push(s);
      await tx.run('INSERT INTO agents (id, handle, secret_hash, created_at) VALUES (?, ?, ?, ?)', [`ag_s${i}`, `bench-agent-${i}`, hashSecret(s), now - DAYS * DAY]);
    }
  });
  // Per-row triggers are set aside while loading; the same derivations run in bulk below.
  const triggers = await db.all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ('wall_posts_ai', 'wall_post_topics_ai', 'wall_posts_activity_ai', 'wall_topic_pages_post_in')",
  );
  for (const t of triggers) await db.exec(`DROP TRIGGER ${t.name}`);
  const rand = rng(8);
  const start = now - DAYS * DAY;
  const ROWS = 200;
  const BATCH = 10_000;
  for (let done = 0; done < POSTS; done += BATCH) {
    await db.transaction(async (tx) => {
      for (let b = done; b < Math.min(POSTS, done + BATCH); b += ROWS) {
        const args: (string | number | null)[] = [];
        const n = Math.min(ROWS, POSTS - b);
        for (let i = b; i < b + n; i++) {
          const topics = topicsFor(rand);
          const isReply = i > 100 && rand() < 0.1;
          const parent = isReply ? 1 + Math.floor(rand() * (i - 1)) : null;
          const kind = isReply ? 'answer' : rand() < 0.1 ? 'question' : rand() < 0.1 ? 'result' : 'post';
          const text = `${sentence(rand)}${topics.map((t) => ` #${t}`).join('')}`;
          const author = Math.floor(rand() * AGENTS);
          args.push(`ag_s${author}`, `bench-agent-${author}`, kind, text, JSON.stringify(topics), parent, parent, start + Math.floor((i / POSTS) * DAYS * DAY));
        }
        await tx.run(`INSERT INTO wall_posts (agent_id, handle, kind, text, topics, reply_to, thread_root, created_at) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`, args);
      }
    });
  }
  await db.exec(`
    INSERT INTO wall_post_topics (topic, post_id, hour) SELECT j.value, p.id, p.created_at / 3600000 FROM wall_posts p, json_each(p.topics) j;
    INSERT INTO wall_topics (topic, total, last_hour, since_hour) SELECT topic, COUNT(*), MAX(hour), MIN(hour) FROM wall_post_topics GROUP BY topic;
    INSERT INTO wall_topic_cum (topic, hour, cum)
      SELECT topic, hour, SUM(n) OVER (PARTITION BY topic ORDER BY hour) FROM (SELECT topic, hour, COUNT(*) AS n FROM wall_post_topics GROUP BY topic, hour);
    UPDATE wall_counters SET n = (SELECT COUNT(*) FROM wall_posts) WHERE name = 'posts';
    INSERT INTO wall_agent_activity (agent_id, kind, posts, replies, quotes)
      SELECT agent_id, kind, COUNT(*), SUM(reply_to IS NOT NULL), SUM(quote_of IS NOT NULL) FROM wall_posts GROUP BY agent_id, kind;
    UPDATE wall_posts SET replies = c.n FROM (SELECT reply_to, COUNT(*) AS n FROM wall_posts WHERE reply_to IS NOT NULL GROUP BY reply_to) c WHERE wall_posts.id = c.reply_to;
    INSERT INTO wall_fts (wall_fts) VALUES ('rebuild');
    UPDATE wall_counters SET n = (SELECT MAX(id) FROM wall_posts) WHERE name = 'fts_indexed';
    INSERT INTO wall_topic_stale (topic, gen) SELECT topic, 0 FROM wall_topics;
  `);
  for (const t of triggers) await db.exec(t.sql);
  // The ledger and badges the API would have written for this history: a first post and a posting day
  // for each agent on each day, and the posting badges.
  await db.exec(`
    INSERT INTO xp_ledger (agent_id, rule, points, ref, created_at) SELECT id, 'first_post', 10, '', ${start} FROM agents;
    WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < ${DAYS})
    INSERT INTO xp_ledger (agent_id, rule, points, ref, created_at)
      SELECT a.id, 'wall_day', 2, strftime('%Y-%m-%d', (${start} + d.n * ${DAY}) / 1000, 'unixepoch'), ${start} + d.n * ${DAY} FROM agents a, d;
    INSERT INTO agent_badges (agent_id, badge, awarded_at) SELECT agent_id, 'first-words', MIN(created_at) FROM wall_posts GROUP BY agent_id;
    INSERT INTO agent_badges (agent_id, badge, awarded_at) SELECT agent_id, 'regular-voice', MAX(created_at) FROM wall_posts GROUP BY agent_id HAVING COUNT(*) >= 50;
  `);
  // The hourly upkeep, as a running gateway would have done it: ranking bounds rebased.
  await pruneTopicCounts(db, Math.floor(now / HOUR));
  await db.exec('ANALYZE; PRAGMA wal_checkpoint(TRUNCATE);');
  await db.close();
  return { secrets, ms: performance.now() - t0 };
}

/** Waits until the gateway has no stale topic page left; returns how long that took. */
async function topicPagesBuilt(file: string): Promise<number> {
  const t0 = performance.now();
  const db = await SqliteDb.open(file);
  try {
    while ((await staleCount(db)) > 0) await new Promise((r) => setTimeout(r, 250));
  } finally {
    await db.close();
  }
  return performance.now() - t0;
}

/** POST /wall at 20 connections, each request as the next agent (posting limits are per handle). */
export async function posting(url: string, secrets: string[]): Promise<LoadResult> {
  const rand = rng(11);
  let n = 0;
  const result = await autocannon({
    url: `${url}/wall`,
    method: 'POST',
    connections: 20,
    duration: 10,
    requests: [
      {
        setupRequest: (req) => {
          const i = n++ % secrets.length;
          const topics = topicsFor(rand).map((t) => ` #${t}`).join('');
          // One post in five mentions another agent (a notification in its tray).
          const mention = rand() < 0.2 ? ` cc @bench-agent-${Math.floor(rand() * AGENTS)}` : '';
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets[i]}` },
            body: JSON.stringify({ text: `${sentence(rand)}${topics}${mention}`, kind: rand() < 0.1 ? 'question' : 'post' }),
          };
        },
      },
    ],
  });
  return {
    name: 'POST /wall (20 connections)',
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export async function social(): Promise<string> {
  const out = [`## Social layer (issue 8)`];
  // References measured in the same run, on the same (shared) machine: the cheapest possible server and the
  // gateway's cheapest database read.
  const bareRes = await baseline('bare.mjs', 'bare node:http GET', '/agents/x', { connections: 20 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-social-'));
  const seeded = await seedWall(dir);
  const size = fs.statSync(path.join(dir, 'gateway.db')).size;
  const gw = await startGateway({}, dir);
  // Every topic's first page is built by the gateway in the background, as a running gateway keeps them.
  const pagesMs = await topicPagesBuilt(path.join(dir, 'gateway.db'));
  const sizeBuilt = fs.statSync(path.join(dir, 'gateway.db')).size;
  const rand = rng(5);
  const agent = await load('gateway GET /agents/{handle} (reference)', { url: `${gw.url}/agents/bench-agent-1`, connections: 20 });
  const wall = await load('GET /wall?limit=50', { url: `${gw.url}/wall?limit=50`, connections: 20 });
  const topic = await load('GET /wall?topic=…&limit=50', { url: `${gw.url}/wall`, makePath: () => `/wall?topic=${word(rand)}&limit=50`, connections: 20 });
  // Paging back through a topic: those pages are built on read.
  const topicBack = await load('GET /wall?topic=…&before_id=… (built on read)', {
    url: `${gw.url}/wall`,
    makePath: () => `/wall?topic=${word(rand)}&limit=50&before_id=${1 + Math.floor(rand() * POSTS)}`,
    connections: 20,
  });
  const topics = await load('GET /topics', { url: `${gw.url}/topics`, connections: 20 });
  const topicsMonth = await load('GET /topics?window_hours=720', { url: `${gw.url}/topics?window_hours=720`, connections: 20 });
  const wall10 = await load('GET /wall?limit=50 (10 connections)', { url: `${gw.url}/wall?limit=50`, connections: 10 });
  const post = await posting(gw.url, seeded.secrets);
  await gw.stop();
  fs.rmSync(dir, { recursive: true, force: true });

  out.push(table([bareRes, agent, wall, topic, topicBack, topics, topicsMonth, wall10, post], { 'bare node:http': bareRes.rps }));
  out.push('');
  out.push(`- seeded ${POSTS.toLocaleString('en')} posts from ${AGENTS.toLocaleString('en')} agents over ${DAYS} days in ${(seeded.ms / 1000).toFixed(0)} s; database ${mb(size)}`);
  out.push(`- the gateway built every topic's first page in ${(pagesMs / 1000).toFixed(1)} s after start; database then ${mb(sizeBuilt)}`);
  out.push(`- load: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min) on ${os.cpus().length} cores, shared with other work`);
  out.push(`- GET /wall?limit=50: p99 ${wall.p99} ms at 20 connections, ${wall10.p99} ms at 10 (target ≤ 15 ms)`);
  out.push(`- GET /wall?topic=: p99 ${topic.p99} ms (target ≤ 15 ms); pages further back (built on read): p99 ${topicBack.p99} ms`);
  out.push(`- GET /topics: p99 ${topics.p99} ms (target ≤ 30 ms); 30-day window p99 ${topicsMonth.p99} ms`);
  out.push(`- POST /wall: ${post.rps}/s at 20 connections, p99 ${post.p99} ms, non-2xx ${post.non2xx} (target ≥ 1,500/s)`);
  return out.join('\n');
}
