// Every SQLite trigger against its PL/pgSQL port (src/store/pg-migrations, issue 25), differentially: each case runs
// the same literal SQL on a fresh SQLite database and a fresh PostgreSQL one (a copy of a migrated template), then
// the same SELECTs must return the same rows; where a trigger aborts, both must reject with the same message.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpSessionStore } from '../../src/store/mcp-sessions.js';
import { PgDb } from '../../src/store/postgres.js';
import { eventually } from '../helpers/eventually.js';
import { migrate } from '../../src/store/migrate.js';
import { SqliteDb } from '../../src/store/sqlite.js';
import { Database } from '../../src/store/sqlite-driver.js';
import { registerFunctions } from '../../src/store/sqlite-connection.js';
import { tempDir } from '../helpers/gateway.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { storageBudgetCases } from '../storage-budget/trigger-cases.js';

const PG_DIR = fileURLToPath(new URL('../../src/store/pg-migrations/', import.meta.url));

// int8 and numeric as numbers, json/jsonb as their text (as the driver hands them to the application).
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700 ? Number : oid === 114 || oid === 3802 ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** SQLite and PostgreSQL spell the same value differently: numbers, bytes, JSON text (spacing, key order). */
function canon(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Buffer.isBuffer(v)) return `x'${v.toString('hex')}'`;
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, canon(x)]));
  if (typeof v === 'string' && /^[[{]/.test(v)) {
    try {
      return { json: canon(JSON.parse(v)) };
    } catch {
      return v;
    }
  }
  return v;
}

const agent = (id: string, handle: string) => `INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('${id}', '${handle}', 'h_${id}', 1000)`;
const AGENTS = [agent('a1', 'alice'), agent('a2', 'bob'), agent('a3', 'carol')];
const entry = (agentId: string | null, key: string, value = '{"b":1,"a":[1,2]}', size = 17, t = 2000) =>
  `INSERT INTO memory_entries (agent_id, namespace, key, value, size, tags, version, created_at, updated_at)
   VALUES (${agentId ? `'${agentId}'` : 'NULL'}, 'notes', '${key}', '${value}', ${size}, '["t1"]', 1, ${t}, ${t})`;
const bump = (key: string, value: string, size: number, t: number) =>
  `UPDATE memory_entries SET value = '${value}', size = ${size}, version = version + 1, updated_at = ${t} WHERE key = '${key}'`;
/** Writes a key again as the gateway does (an upsert onto its unique index, tools/memory/store/entries.ts), at t = 3000. */
const revive = (agentId: string, key: string): Step => {
  const set = (version: string) => `DO UPDATE SET value = excluded.value, size = excluded.size, version = ${version} + 1, updated_at = excluded.updated_at, expires_at = NULL`;
  return {
    sqlite: `${entry(agentId, key, '{}', 2, 3000)} ON CONFLICT (ifnull(agent_id, ''), namespace, key) ${set('version')}`,
    pg: `${entry(agentId, key, '{}', 2, 3000)} ON CONFLICT (coalesce(agent_id, ''), namespace, key) ${set('memory_entries.version')}`,
  };
};
const post = (id: number, agentId: string, topics: string, extra: Record<string, string | number> = {}) => {
  const cols = { id, agent_id: `'${agentId}'`, kind: "'note'", text: `'post ${id}'`, topics: `'${topics}'`, created_at: 3600000 * id, ...extra };
  return `INSERT INTO wall_posts (${Object.keys(cols).join(', ')}) VALUES (${Object.values(cols).join(', ')})`;
};
const POSTS = [post(1, 'a1', '["ai","db"]'), post(2, 'a2', '["ai"]', { reply_to: 1, thread_root: 1 }), post(3, 'a3', '["db"]', { quote_of: 1 })];
/** The wall indexer's batch: on SQLite it also fills wall_fts (whose delete trigger needs the rows there); on
 * PostgreSQL the search column is already filled, so only the mark moves. The one step spelled twice. */
const INDEXED: Step = {
  sqlite: "INSERT INTO wall_fts (rowid, text) SELECT id, text FROM wall_posts WHERE id <= 3; UPDATE wall_counters SET n = 3 WHERE name = 'fts_indexed'",
  pg: "UPDATE wall_counters SET n = 3 WHERE name = 'fts_indexed'",
};
const TOPIC_ROWS = "INSERT INTO wall_post_topics (topic, post_id, hour) VALUES ('ai', 1, 1), ('db', 1, 1), ('ai', 2, 3), ('db', 3, 3)";
const PAGE = (topic: string, oldest: number) => `INSERT INTO wall_topic_pages (topic, base, count, newest, oldest, more, json) VALUES ('${topic}', 'http://x', 1, 9, ${oldest}, 0, '{}')`;
const ACCOUNT = "INSERT INTO revenue_accounts (id, email, name, key_hash, key_hint, client_hash, created_at) VALUES ('acc1', 'a@x', 'A', 'kh', 'rk_', 'ch', 1)";
const LEDGER = "INSERT INTO account_ledger (account_id, kind, amount, delta, balance_after, reason, created_at) VALUES ('acc1', 'credit', 5, 5, 5, 'op', 1)";
const ORDER = (id: string, state: string, t: number) =>
  `INSERT INTO orders (id, account_id, service, price_id, status, price, rail, hold_ref, hold_amount, payment_state, input, created_at, updated_at)
   VALUES ('${id}', 'acc1', 'seo', 'p1', 'placed', 100, 'credits', 'h_${id}', 120, '${state}', '{"url":"x"}', ${t}, ${t})`;

const COUNTERS = 'SELECT name, n FROM wall_counters ORDER BY name';
const POST_COUNTS = 'SELECT id, replies, quotes, r_like, r_verified, r_reproduced, r_insightful, r_thanks, handle, has_mentions, mention_ids FROM wall_posts ORDER BY id';
const STALE = 'SELECT topic, gen FROM wall_topic_stale ORDER BY topic';
const TOPICS = 'SELECT * FROM wall_topics ORDER BY topic';
const CUM = 'SELECT * FROM wall_topic_cum ORDER BY topic, hour';
const VERSIONS = 'SELECT entry_id, version, value, size, written_at, written_by FROM memory_versions ORDER BY entry_id, version';
const CHANGES = 'SELECT seq, agent_id, namespace, key, op, version, value, visibility, tags, expires_at, at FROM memory_changes ORDER BY seq';
const USAGE = 'SELECT * FROM memory_usage ORDER BY agent_id';
const RESOURCES = 'SELECT seq, scheme, agent_id, path FROM resource_changes ORDER BY seq';

type Step = string | { sqlite: string; pg: string };

interface Case {
  name: string;
  /** The SQLite triggers this case exercises. */
  triggers: string[];
  steps: Step[];
  check: string[];
  /** The last step must fail on both with this message. */
  rejects?: string;
}

const cases: Case[] = [
  { name: 'memory insert: version, change feed, usage', triggers: ['memory_entries_ai'], steps: [...AGENTS, entry('a1', 'k1'), entry('a1', 'k2'), entry(null, 'k3')], check: [VERSIONS, CHANGES, USAGE] },
  {
    name: 'memory update: new version, old ones pruned past the setting, feed compacted, bytes',
    triggers: ['memory_entries_au'],
    steps: [...AGENTS, "UPDATE gateway_settings SET value = '2' WHERE key = 'memory_versions_kept'", entry('a1', 'k1'), entry('a1', 'k2'), bump('k1', '{"v":2}', 7, 3000), bump('k1', '[3]', 3, 4000), bump('k1', '{"v":4}', 7, 5000), "UPDATE memory_entries SET pinned = 1 WHERE key = 'k2'"],
    check: [VERSIONS, CHANGES, USAGE],
  },
  { name: 'memory delete: usage follows', triggers: ['memory_entries_ad'], steps: [...AGENTS, entry('a1', 'k1'), entry('a1', 'k2', '[]', 2), "DELETE FROM memory_entries WHERE key = 'k1'"], check: [USAGE, VERSIONS] },
  {
    name: 'memory entry limit: a live key may be written again, a new one is refused',
    triggers: ['memory_entries_limit'],
    steps: [...AGENTS, "UPDATE gateway_settings SET value = '1' WHERE key = 'memory_max_entries'", entry('a1', 'k1'), entry(null, 's1'), `${entry('a1', 'k1')} ON CONFLICT DO NOTHING`, entry('a1', 'k2')],
    check: [USAGE, 'SELECT agent_id, key FROM memory_entries ORDER BY id'],
    rejects: 'memory_entry_limit',
  },
  {
    // SQLite checks the proposed row before the conflict, PostgreSQL the revived row after it (pg-migrations/035).
    name: 'memory entry limit: an expired key counts as new',
    triggers: ['memory_entries_limit'],
    steps: [
      ...AGENTS,
      "UPDATE gateway_settings SET value = '1' WHERE key = 'memory_max_entries'",
      entry('a1', 'k1'),
      'UPDATE memory_entries SET expires_at = 2500',
      revive('a1', 'k1'),
    ],
    check: [USAGE],
    rejects: 'memory_entry_limit',
  },
  {
    name: 'memory entry limit: an expired key written again below the limit comes back, counted once',
    triggers: ['memory_entries_limit'],
    steps: [
      ...AGENTS,
      "UPDATE gateway_settings SET value = '2' WHERE key = 'memory_max_entries'",
      entry('a1', 'k1'),
      'UPDATE memory_entries SET expires_at = 2500',
      revive('a1', 'k1'),
      entry('a1', 'k2'),
      entry('a1', 'k3'),
    ],
    check: [USAGE, 'SELECT agent_id, key, version, expires_at FROM memory_entries ORDER BY id'],
    rejects: 'memory_entry_limit',
  },
  {
    name: 'memory byte quota: a new key past it is refused, an existing one rewritten smaller passes',
    triggers: ['memory_entries_bytes_insert', 'memory_entries_bytes_update'],
    steps: [...AGENTS, "UPDATE gateway_settings SET value = '30' WHERE key = 'memory_max_bytes'", entry('a1', 'k1'), entry('a2', 'k1'), entry(null, 's1', '{}', 40), bump('k1', '[1]', 3, 3000), entry('a1', 'k2', '{}', 13), entry('a1', 'k3', '{}', 15)],
    check: [USAGE, 'SELECT agent_id, key, size FROM memory_entries ORDER BY id'],
    rejects: 'memory_byte_limit',
  },
  {
    name: 'memory byte quota: an agent over a lowered quota may still shrink a value',
    triggers: ['memory_entries_bytes_update'],
    steps: [...AGENTS, entry('a1', 'k1'), entry('a1', 'k2', '{}', 10), "UPDATE gateway_settings SET value = '10' WHERE key = 'memory_max_bytes'", bump('k1', '[1]', 12, 3000)],
    check: [USAGE, 'SELECT agent_id, key, size FROM memory_entries ORDER BY id'],
  },
  {
    name: 'memory byte quota: an update that grows a value past it is refused',
    triggers: ['memory_entries_bytes_update'],
    steps: [...AGENTS, "UPDATE gateway_settings SET value = '30' WHERE key = 'memory_max_bytes'", entry('a1', 'k1'), entry('a1', 'k2', '{}', 10), "UPDATE memory_entries SET size = 21, version = version + 1 WHERE agent_id = 'a1' AND key = 'k1'"],
    check: [USAGE, VERSIONS],
    rejects: 'memory_byte_limit',
  },
  {
    name: 'credit ledger: no UPDATE',
    triggers: ['credit_ledger_append_only'],
    steps: [...AGENTS, "INSERT INTO credit_ledger (agent_id, kind, amount, balance_after, reason, created_at) VALUES ('a1', 'grant', 10, 10, 'op', 1)", 'UPDATE credit_ledger SET amount = 20'],
    check: ['SELECT * FROM credit_ledger'],
    rejects: 'credit_ledger is append-only',
  },
  {
    name: 'credit ledger: no DELETE while the agent lives',
    triggers: ['credit_ledger_keep_rows'],
    steps: [...AGENTS, "INSERT INTO credit_ledger (agent_id, kind, amount, balance_after, reason, created_at) VALUES ('a1', 'grant', 10, 10, 'op', 1)", 'DELETE FROM credit_ledger'],
    check: ['SELECT * FROM credit_ledger'],
    rejects: 'credit_ledger is append-only',
  },
  {
    name: 'credit and XP ledgers: rows go with their agent',
    triggers: ['credit_ledger_keep_rows', 'xp_ledger_keep_rows'],
    steps: [...AGENTS, "INSERT INTO credit_ledger (agent_id, kind, amount, balance_after, reason, created_at) VALUES ('a1', 'grant', 10, 10, 'op', 1), ('a2', 'grant', 5, 5, 'op', 1)", "INSERT INTO xp_ledger (agent_id, rule, points, created_at) VALUES ('a1', 'r', 5, 1), ('a2', 'r', 7, 1)", "DELETE FROM agents WHERE id = 'a1'"],
    check: ['SELECT agent_id, amount FROM credit_ledger ORDER BY id', 'SELECT agent_id, points FROM xp_ledger ORDER BY id'],
  },
  { name: 'xp ledger: no UPDATE', triggers: ['xp_ledger_append_only'], steps: [...AGENTS, "INSERT INTO xp_ledger (agent_id, rule, points, created_at) VALUES ('a1', 'r', 5, 1)", 'UPDATE xp_ledger SET points = 50'], check: ['SELECT xp FROM agents ORDER BY id'], rejects: 'the XP ledger is append-only' },
  { name: 'xp ledger: no DELETE while the agent lives', triggers: ['xp_ledger_keep_rows'], steps: [...AGENTS, "INSERT INTO xp_ledger (agent_id, rule, points, created_at) VALUES ('a1', 'r', 5, 1)", 'DELETE FROM xp_ledger'], check: ['SELECT * FROM xp_ledger'], rejects: 'the XP ledger is append-only' },
  {
    name: 'xp ledger: agents.xp is the running total; profile resources change',
    triggers: ['xp_ledger_total', 'resource_changes_agent'],
    steps: [...AGENTS, "INSERT INTO xp_ledger (agent_id, rule, points, ref, created_at) VALUES ('a1', 'r', 5, 'x', 1), ('a1', 'r', 3, 'y', 2), ('a2', 's', 4, '', 3)", "UPDATE agents SET bio = 'hi' WHERE id = 'a3'", "UPDATE agents SET last_seen_at = 5 WHERE id = 'a3'"],
    check: ['SELECT id, xp FROM agents ORDER BY id', RESOURCES],
  },
  {
    name: 'wall post insert: reply and quote counts, post counter, version, activity, handle',
    triggers: ['wall_posts_ai', 'wall_version_post_ai', 'wall_version_post_au', 'wall_posts_activity_ai', 'wall_posts_handle'],
    steps: [...AGENTS, ...POSTS, post(4, 'a1', '[]', { handle: "'given'", reply_to: 1, quote_of: 3 })],
    check: [POST_COUNTS, COUNTERS, 'SELECT * FROM wall_agent_activity ORDER BY agent_id, kind', 'SELECT COUNT(*) AS n FROM wall_post_topics'],
  },
  {
    name: 'wall post delete: counts, counter, version, activity',
    triggers: ['wall_posts_ad', 'wall_version_post_ad', 'wall_posts_activity_ad'],
    steps: [...AGENTS, ...POSTS, 'DELETE FROM wall_posts WHERE id IN (2, 3)'],
    check: [POST_COUNTS, COUNTERS, 'SELECT * FROM wall_agent_activity ORDER BY agent_id, kind'],
  },
  {
    name: 'wall mentions: recorded for agents that exist, column cleared, has_mentions set',
    triggers: ['wall_posts_mentions'],
    steps: [...AGENTS, post(1, 'a1', '[]', { mention_ids: `'["a2","a3","gone"]'` }), post(2, 'a1', '[]', { mention_ids: `'[]'` })],
    check: ['SELECT * FROM wall_mentions ORDER BY post_id, agent_id', POST_COUNTS, COUNTERS],
  },
  {
    name: 'topic rows: totals, prefix sums (also out of order), bases after a rebase, pages marked',
    triggers: ['wall_post_topics_ai', 'wall_topic_pages_post_in', 'wall_topic_changes_mark'],
    steps: [...AGENTS, ...POSTS, TOPIC_ROWS, "INSERT INTO wall_post_topics (topic, post_id, hour) VALUES ('ai', 3, 2)", "UPDATE wall_topics SET rebased_hour = 40", "INSERT INTO wall_post_topics (topic, post_id, hour) VALUES ('db', 2, 4)"],
    check: [TOPICS, CUM, STALE, COUNTERS],
  },
  {
    name: 'topic rows deleted: counts back, older than since_hour ignored, pages marked',
    triggers: ['wall_post_topics_ad', 'wall_topic_pages_post_out'],
    steps: [...AGENTS, ...POSTS, TOPIC_ROWS, "UPDATE wall_topics SET rebased_hour = 40", "DELETE FROM wall_post_topics WHERE topic = 'ai' AND post_id = 1", "UPDATE wall_topics SET since_hour = 3 WHERE topic = 'db'", "DELETE FROM wall_post_topics WHERE topic = 'db' AND post_id = 1", 'DELETE FROM wall_posts WHERE id = 3'],
    check: [TOPICS, CUM, STALE],
  },
  {
    name: 'reactions: per-kind counts up and down',
    triggers: ['wall_reactions_ai', 'wall_reactions_ad'],
    steps: [...AGENTS, ...POSTS, "INSERT INTO wall_reactions (post_id, agent_id, kind, created_at) VALUES (1, 'a2', 'like', 1), (1, 'a3', 'like', 1), (1, 'a2', 'thanks', 1), (2, 'a1', 'verified', 1), (2, 'a3', 'insightful', 1), (3, 'a1', 'reproduced', 1)", "DELETE FROM wall_reactions WHERE agent_id = 'a3'"],
    check: [POST_COUNTS, COUNTERS],
  },
  {
    name: 'topic change marks: by post only when on a page or already stale',
    triggers: ['wall_topic_changes_mark'],
    steps: [PAGE('t1', 5), PAGE('t2', 5), "INSERT INTO wall_topic_changes (topic, post_id) VALUES ('t1', 3)", "INSERT INTO wall_topic_changes (topic, post_id) VALUES ('t2', 7)", "INSERT INTO wall_topic_changes (topic, post_id) VALUES ('t3', NULL)", "INSERT INTO wall_topic_changes (topic, post_id) VALUES ('t3', 1), ('t4', 1)"],
    check: [STALE, COUNTERS],
  },
  {
    name: 'post updated after indexing: its topics are marked',
    triggers: ['wall_topic_pages_post_au'],
    steps: [...AGENTS, ...POSTS, post(4, 'a1', '["ai","zz"]'), INDEXED, PAGE('ai', 1), PAGE('db', 9), 'UPDATE wall_posts SET r_like = 1 WHERE id IN (1, 4)'],
    check: [STALE, COUNTERS],
  },
  {
    name: 'quoted post deleted: the quoting posts\' topics are marked',
    triggers: ['wall_topic_pages_quoted_ad'],
    steps: [...AGENTS, ...POSTS, INDEXED, PAGE('db', 1), 'DELETE FROM wall_topic_stale', 'DELETE FROM wall_posts WHERE id = 1'],
    check: [STALE, POST_COUNTS],
  },
  {
    name: 'agent deleted: tray entries it caused, mentions\' topics marked, version, tokens, cascades',
    triggers: ['social_forget_actor', 'wall_topic_pages_agent_bd', 'wall_version_agent_bd', 'oauth_records_agent_deleted'],
    steps: [
      ...AGENTS, post(1, 'a1', '["ai"]', { mention_ids: `'["a2"]'` }), post(2, 'a2', '["db"]'), INDEXED, PAGE('ai', 1),
      `INSERT INTO notifications (agent_id, kind, title, data, created_at) VALUES ('a1', 'mention', 'm', '{"from":"bob","post":1}', 1), ('a1', 'job', 'j', '{"from":"bob"}', 2), ('a3', 'follow', 'f', '{"from":"bob"}', 3), ('a3', 'mail', 'x', '[1]', 4), ('a3', 'reply', 'r', '{"from":"alice"}', 5)`,
      "INSERT INTO oauth_records (kind, id_hash, payload, account_id, expires_at) VALUES ('AccessToken', 'h1', '{\"a\":1}', 'a2', 9), ('AccessToken', 'h2', '{}', 'a1', 9), ('Client', 'h3', '{}', NULL, NULL)",
      "DELETE FROM agents WHERE id = 'a2'",
    ],
    check: ['SELECT agent_id, kind, title, data FROM notifications ORDER BY id', STALE, COUNTERS, 'SELECT kind, id_hash, payload FROM oauth_records ORDER BY id_hash', 'SELECT * FROM wall_mentions', POST_COUNTS],
  },
  {
    name: 'agent renamed: posts carry the handle, pages with its mentions and quotes marked, version',
    triggers: ['wall_posts_handle_renamed', 'wall_topic_pages_agent_handle', 'wall_version_agent_handle'],
    steps: [...AGENTS, post(1, 'a1', '["ai"]'), post(2, 'a2', '["db"]', { quote_of: 1, mention_ids: `'["a3"]'` }), post(3, 'a3', '["qq"]', { mention_ids: `'["a1"]'` }), INDEXED, "UPDATE agents SET handle = 'alice2' WHERE id = 'a1'", "UPDATE agents SET bio = 'no rename' WHERE id = 'a2'"],
    check: [POST_COUNTS, STALE, COUNTERS],
  },
  {
    name: 'resource changes: badges and catalogue',
    triggers: ['resource_changes_badge', 'resource_changes_catalog'],
    steps: [...AGENTS, "INSERT INTO agent_badges (agent_id, badge, awarded_at) VALUES ('a1', 'first', 1)", "INSERT INTO catalog_first_seen (kind, name, first_seen_at) VALUES ('tool', 'x', 1), ('listing', 'y', 1)"],
    check: [RESOURCES],
  },
  {
    // Explicit seqs: an identity does not move past them as AUTOINCREMENT does, so no row here takes a default.
    name: 'resource changes: every 1000th row prunes all but the last 10000',
    triggers: ['resource_changes_prune'],
    steps: ["INSERT INTO resource_changes (seq, scheme, agent_id, path) VALUES (5, 'x', NULL, 'a'), (10001, 'x', NULL, 'b'), (10999, 'x', NULL, 'c')", "INSERT INTO resource_changes (seq, scheme, agent_id, path) VALUES (20000, 'x', NULL, 'd')", "INSERT INTO resource_changes (seq, scheme, agent_id, path) VALUES (21001, 'x', NULL, 'e'), (30000, 'x', NULL, 'f')"],
    check: [RESOURCES],
  },
  { name: 'account ledger: no UPDATE', triggers: ['account_ledger_append_only'], steps: [ACCOUNT, LEDGER, 'UPDATE account_ledger SET amount = 6'], check: ['SELECT * FROM account_ledger'], rejects: 'account_ledger is append-only' },
  { name: 'account ledger: no DELETE', triggers: ['account_ledger_keep_rows'], steps: [ACCOUNT, LEDGER, 'DELETE FROM account_ledger'], check: ['SELECT * FROM account_ledger'], rejects: 'account_ledger is append-only' },
  {
    name: 'orders: stats and month usage on placing and on every state change',
    triggers: ['orders_stats_insert', 'orders_stats_update'],
    steps: [
      ACCOUNT, ORDER('o1', 'held', 1704067199000), ORDER('o2', 'held', 1704067200000), ORDER('o3', 'captured', 1704067200001),
      "UPDATE orders SET status = 'working', updated_at = 1706745600000 WHERE id = 'o1'",
      "UPDATE orders SET status = 'delivered', delivered_at = 1706745600000, updated_at = 1706745600000 WHERE id = 'o1'",
      "UPDATE orders SET payment_state = 'captured', charged = 90, updated_at = 1706745600000 WHERE id = 'o1'",
      "UPDATE orders SET status = 'failed', payment_state = 'released', updated_at = 1706745600001 WHERE id = 'o2'",
      "UPDATE orders SET status = 'failed', error = 'same state again', updated_at = 1706745600002 WHERE id = 'o2'",
    ],
    check: ['SELECT * FROM account_stats', 'SELECT * FROM account_month_usage ORDER BY month, service'],
  },
  ...storageBudgetCases,
];

let server: TestPostgres;
let admin: pg.Client;
let image: Buffer;
const dir = tempDir();
let n = 0;

beforeAll(async () => {
  if (!hasPostgres) return;
  server = await startPostgres();
  const tmpl = new pg.Client(await server.createDatabase('tmpl'));
  await tmpl.connect();
  for (const f of fs.readdirSync(PG_DIR).filter((x) => x.endsWith('.sql')).sort()) {
    await tmpl.query('BEGIN');
    await tmpl.query(fs.readFileSync(path.join(PG_DIR, f), 'utf8'));
    await tmpl.query('COMMIT');
  }
  await tmpl.end();
  admin = new pg.Client(server.url);
  await admin.connect();
  const sdb = await SqliteDb.open(path.join(dir, 'tmpl.db'));
  await migrate(sdb);
  await sdb.close();
  const raw = new Database(path.join(dir, 'tmpl.db'));
  raw.pragma('journal_mode = DELETE'); // a WAL-mode image does not open in memory
  image = raw.serialize();
  raw.close();
});
afterAll(async () => {
  await admin?.end();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs a case on fresh copies of both schemas; returns what each check returned and the abort messages. */
async function runBoth(c: Case) {
  const lite = new Database(image);
  registerFunctions(lite); // the triggers read memory values through memory_value()
  lite.pragma('foreign_keys = ON');
  const name = `case_${++n}`;
  await admin.query(`CREATE DATABASE ${name} TEMPLATE tmpl`);
  const pgc = new pg.Client({ connectionString: server.url.replace(/\/gateway$/, `/${name}`), types: pgTypes });
  await pgc.connect();
  const errors: { lite?: string; pg?: string } = {};
  try {
    for (const [i, step] of c.steps.entries()) {
      const [liteSql, sql] = typeof step === 'string' ? [step, step] : [step.sqlite, step.pg];
      const last = i === c.steps.length - 1 && c.rejects !== undefined;
      try {
        lite.exec(liteSql);
      } catch (err) {
        if (!last) throw new Error(`SQLite step ${i}: ${(err as Error).message}`);
        errors.lite = (err as Error).message;
      }
      try {
        await pgc.query(sql);
      } catch (err) {
        if (!last) throw new Error(`PostgreSQL step ${i}: ${(err as Error).message}\n${sql}`);
        errors.pg = (err as Error).message;
      }
    }
    const lites = c.check.map((q) => canon(lite.prepare(q).all()));
    const pgs: unknown[] = [];
    for (const q of c.check) pgs.push(canon((await pgc.query(q)).rows));
    return { lites, pgs, errors };
  } finally {
    lite.close();
    await pgc.end();
  }
}

/** Triggers only PostgreSQL has: NOTIFY to other instances (027_change_signals, 047_mcp_session_signals). */
const PG_SIGNALS = ['memory_changes_signal', 'resource_changes_signal', 'a2a_tasks_signal', 'mcp_sessions_signal'];
/** The memory full-text vector's trigger (038), where SQLite keeps FTS5 tables with triggers of their own. */
const PG_FTS = ['memory_entries_fts'];
/** A text's words as migration 040 indexes them: Porter stems, words of one or two characters as written. */
const WORDS = (text: string) =>
  `to_tsvector('gateway_porter', regexp_replace(fts5_words(${text}), '\\m\\w{1,2}\\M', ' ', 'g')) || to_tsvector('gateway_plain', regexp_replace(fts5_words(${text}), '\\m\\w{3,}\\M', ' ', 'g'))`;
/** The vector as migrations 032 and 040 define it, written out here as the trigger must keep computing it. */
const FTS_040 = `setweight(${WORDS('key')}, 'A')
  || setweight(${WORDS('tags::text')}, 'B')
  || setweight(${WORDS('namespace')}, 'C')
  || setweight(${WORDS('memory_words(value)')}, 'C')
  || setweight(to_tsvector('simple',
       CASE WHEN agent_id IS NULL THEN 'pub' ELSE 'o' || sqlite_hex(agent_id) || ' n' || sqlite_hex(agent_id || '/' || namespace) || CASE WHEN visibility = 'public' THEN ' pub' ELSE '' END END
       || ' x' || sqlite_hex(namespace)), 'D')`;

describe.skipIf(!hasPostgres)('PostgreSQL triggers behave as the SQLite ones (differential)', () => {
  it('every SQLite trigger has a PostgreSQL trigger of the same name and a case below', async () => {
    const lite = new Database(image);
    const names = (lite.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    lite.close();
    const tmpl = new pg.Client(server.url.replace(/\/gateway$/, '/tmpl'));
    await tmpl.connect();
    const pgNames = (await tmpl.query("SELECT t.tgname AS name FROM pg_trigger t WHERE NOT t.tgisinternal ORDER BY 1")).rows.map((r) => r.name as string);
    await tmpl.end();
    // PostgreSQL alone signals other instances (027_change_signals: NOTIFY) and keeps the memory vector (038), both tested below.
    const pgOnly = [...PG_SIGNALS, ...PG_FTS];
    expect(pgNames.filter((n) => !pgOnly.includes(n)).sort()).toEqual([...names].sort());
    expect(pgNames.filter((n) => pgOnly.includes(n)).sort()).toEqual([...pgOnly].sort());
    expect([...new Set(cases.flatMap((c) => c.triggers))].sort()).toEqual([...names].sort());
  });

  it('keeps the memory vector as migrations 032 and 040 define it, through every write that changes what it is made of', async () => {
    await admin.query('CREATE DATABASE fts TEMPLATE tmpl');
    const pgc = new pg.Client(server.url.replace(/\/gateway$/, '/fts'));
    await pgc.connect();
    const stale = async () => (await pgc.query(`SELECT key FROM memory_entries WHERE fts IS DISTINCT FROM (${FTS_040}) ORDER BY key`)).rows.map((r) => r.key);
    const found = async (word: string) => (await pgc.query("SELECT key FROM memory_entries WHERE fts @@ to_tsquery('gateway_porter', $1) ORDER BY key", [word])).rows.map((r) => r.key);
    try {
      for (const a of AGENTS) await pgc.query(a);
      await pgc.query(entry('a1', 'k1', '{"note":"first draft"}'));
      await pgc.query(entry(null, 'k2', '{"note":"scratch pad"}'));
      await pgc.query(
        `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, version, created_at, updated_at)
         VALUES ('a2', 'pub', 'k3', '{"note":"open letter"}', 20, 'public', '["news"]', 1, 1, 1)`,
      );
      expect(await stale()).toEqual([]);
      expect(await found('draft')).toEqual(['k1']);
      // The gateway's upsert (tools/memory/store/entries.ts) replaces the value and the tags.
      await pgc.query(
        `${entry('a1', 'k1', '{"note":"final copy"}')} ON CONFLICT (coalesce(agent_id, ''), namespace, key)
         DO UPDATE SET value = excluded.value, tags = '["done"]', size = excluded.size, version = memory_entries.version + 1`,
      );
      expect(await found('draft')).toEqual([]);
      expect(await found('final & done')).toEqual(['k1']);
      await pgc.query("UPDATE memory_entries SET visibility = 'public' WHERE key = 'k1'");
      await pgc.query("UPDATE memory_entries SET namespace = 'moved' WHERE key = 'k3'");
      await pgc.query("UPDATE memory_entries SET key = 'k2b' WHERE key = 'k2'");
      expect(await stale()).toEqual([]);
      expect(await found(`'pub':D & final`)).toEqual(['k1']);
      // A write to none of its columns (the facts worker's mark, a pin) keeps the vector as it was.
      await pgc.query("UPDATE memory_entries SET facts_version = version, pinned = 1");
      expect(await stale()).toEqual([]);
      // A vector written by hand on insert is replaced by the one the row makes.
      await pgc.query(
        `INSERT INTO memory_entries (agent_id, namespace, key, value, size, tags, version, created_at, updated_at, fts)
         VALUES ('a3', 'notes', 'k4', '{"note":"honest words"}', 20, '[]', 1, 1, 1, to_tsvector('simple', 'forged'))`,
      );
      expect(await stale()).toEqual([]);
      expect(await found('forged')).toEqual([]);
    } finally {
      await pgc.end();
    }
  });

  it('signals other instances after a committed write to a change log or an A2A task (LISTEN/NOTIFY), never after a rollback', async () => {
    await admin.query('CREATE DATABASE signals TEMPLATE tmpl');
    const db = await PgDb.open(server.url.replace(/\/gateway$/, '/signals'));
    const heard = { changes: 0, tasks: 0 };
    const stops = [await db.listen('gw_resource_changes', () => heard.changes++), await db.listen('gw_a2a_tasks', () => heard.tasks++)];
    try {
      await db.run("INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('artifact', NULL, 'x')");
      await eventually(async () => expect(heard.changes).toBe(1));
      await db.transaction(async (t) => {
        await t.run("INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('artifact', NULL, 'y')");
        await t.run("INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('artifact', NULL, 'z')");
      });
      await eventually(async () => expect(heard.changes).toBe(2)); // one per transaction
      await db.transaction(async (t) => {
        await t.run("INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('artifact', NULL, 'gone')");
        throw new Error('rolled back');
      }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
      expect(heard.changes).toBe(2);
      expect(heard.tasks).toBe(0);
    } finally {
      for (const stop of stops) stop();
      await db.close();
    }
  });

  it('signals a shared MCP session changed (login, toolsets, subscriptions, closed), not a seen_at refresh nor a write that changes nothing', async () => {
    await admin.query('CREATE DATABASE session_signals TEMPLATE tmpl');
    const db = await PgDb.open(server.url.replace(/\/gateway$/, '/session_signals'));
    const store = new McpSessionStore(db, 60_000);
    let heard = 0;
    const stop = await store.onChange(() => heard++)!;
    const quiet = async (n: number) => {
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toBe(n);
    };
    try {
      const id = '0b7d4a52-3f7e-4c1a-9d35-5e2a6f8b9c01';
      await store.create(id, [], { protocolVersion: '2025-06-18' });
      await store.touch(id);
      await store.load(id);
      await quiet(0);
      // Closing an unknown session, or setting what is already set, changes no row.
      expect(await store.close('7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f')).toBe(false);
      await store.setToolsets(id, []);
      await quiet(0);
      await store.setToolsets(id, ['memory']);
      await eventually(async () => expect(heard).toBe(1));
      await store.setLogin(id, 'vlh_handle');
      await eventually(async () => expect(heard).toBe(2));
      await store.setSubscriptions(id, ['memory://a/b/c']);
      await eventually(async () => expect(heard).toBe(3));
      await store.touch(id);
      await quiet(3);
      expect(await store.close(id)).toBe(true);
      await eventually(async () => expect(heard).toBe(4));
    } finally {
      stop();
      await db.close();
    }
  });

  it('sends a NOTIFY only while a gateway listens on its channel (signal_listeners), and none after it stops', async () => {
    await admin.query('CREATE DATABASE quiet TEMPLATE tmpl');
    const url = server.url.replace(/\/gateway$/, '/quiet');
    // A bare LISTEN, not registered: it hears whatever is sent, and does not itself make writes notify.
    const raw = new pg.Client(url);
    await raw.connect();
    const sent: string[] = [];
    raw.on('notification', (n) => sent.push(n.channel));
    await raw.query('LISTEN gw_resource_changes');
    await raw.query('LISTEN gw_a2a_tasks');
    const db = await PgDb.open(url);
    const write = (path: string) => db.run("INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('artifact', NULL, ?)", [path]);
    const registered = async () => (await raw.query<{ channel: string }>('SELECT channel FROM signal_listeners ORDER BY channel')).rows.map((r) => r.channel);
    try {
      await write('before');
      await new Promise((r) => setTimeout(r, 200));
      expect(sent).toEqual([]);

      let heard = 0;
      const stop = await db.listen('gw_resource_changes', () => heard++);
      expect(await registered()).toEqual(['gw_resource_changes']);
      await write('while');
      await eventually(async () => expect(heard).toBe(1));
      // The bare client is another connection: the same NOTIFY may reach it a little later (a CI run once read it
      // too early).
      await eventually(async () => expect(sent).toEqual(['gw_resource_changes']));
      // Only the channel listened to: an A2A task write still sends nothing.
      await db.run("INSERT INTO a2a_tasks (id, context_id, agent_id, state, status, history, created_at, updated_at) VALUES ('t1', 'c1', NULL, 'working', '{}', '[]', 1, 1)");
      await new Promise((r) => setTimeout(r, 200));
      expect(sent).toEqual(['gw_resource_changes']);

      stop();
      await eventually(async () => expect(await registered()).toEqual([]));
      await write('after');
      await new Promise((r) => setTimeout(r, 200));
      expect(sent).toEqual(['gw_resource_changes']);
      // An instance that died leaves its row, which stops counting once expired.
      await raw.query("INSERT INTO signal_listeners (channel, listener, until) VALUES ('gw_resource_changes', 'dead', 1)");
      await write('expired');
      await new Promise((r) => setTimeout(r, 200));
      expect(sent).toEqual(['gw_resource_changes']);
    } finally {
      await db.close();
      await raw.end();
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { lites, pgs, errors } = await runBoth(c);
    if (c.rejects !== undefined) expect(errors).toEqual({ lite: c.rejects, pg: c.rejects });
    else expect(errors).toEqual({});
    c.check.forEach((q, i) => expect(pgs[i], q).toEqual(lites[i]));
    // A check that reads nothing proves nothing: every case leaves rows to compare.
    expect((lites as unknown[][]).some((r) => r.length > 0)).toBe(true);
  });
});
