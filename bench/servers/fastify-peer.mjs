// The peer a user would write by hand (issue 26): fastify 5 + better-sqlite3 serving the gateway's public profile
// JSON from a table by handle, and an owner read (GET /memory/:ns/:key) behind a bearer check that hashes the
// secret and looks the agent up, as the gateway does. Its data: the agent `bench-agent` with the secret in
// BENCH_PEER_SECRET and one memory entry. Prints READY <port>. BENCH_PEER_LOG=1 turns fastify's own logger on (pino,
// its default request logging) into /dev/null, where the bench also sends the gateway's access lines.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';

// The better-sqlite3 build this Node runs, as the gateway chooses it (src/store/sqlite-driver.ts): 13 needs Node-API 10.
const require = createRequire(import.meta.url);
const Database = Number(process.versions.napi) >= 10 ? require('better-sqlite3') : require('better-sqlite3-legacy');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fastify-'));
const db = new Database(path.join(dir, 'peer.db'));
db.pragma('journal_mode = WAL');
db.exec(`CREATE TABLE agents (id TEXT PRIMARY KEY, handle TEXT UNIQUE NOT NULL, secret_hash TEXT UNIQUE NOT NULL, bio TEXT NOT NULL, xp INTEGER NOT NULL, created_at INTEGER NOT NULL);
  CREATE TABLE memory (agent_id TEXT NOT NULL, namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, version INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (agent_id, namespace, key))`);
const secret = process.env.BENCH_PEER_SECRET ?? 'peer-secret';
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
db.prepare('INSERT INTO agents VALUES (?, ?, ?, ?, ?, ?)').run('ag_1', 'bench-agent', sha256(secret), '', 0, Date.parse('2026-01-01T00:00:00.000Z'));
db.prepare('INSERT INTO memory VALUES (?, ?, ?, ?, ?, ?)').run('ag_1', 'notes', 'k1', JSON.stringify({ text: 'hello' }), 1, Date.now());

const byHandle = db.prepare('SELECT handle, bio, xp, created_at FROM agents WHERE handle = ?');
const bySecret = db.prepare('SELECT id FROM agents WHERE secret_hash = ?');
const entry = db.prepare('SELECT namespace, key, value, version, updated_at FROM memory WHERE agent_id = ? AND namespace = ? AND key = ?');

const app = Fastify({ logger: process.env.BENCH_PEER_LOG ? { level: 'info', file: '/dev/null' } : false });
app.get('/agents/:handle', async (req, reply) => {
  const a = byHandle.get(req.params.handle);
  if (!a) return reply.code(404).send({ error: 'not_found' });
  return { handle: a.handle, bio: a.bio, xp: a.xp, member_since: new Date(a.created_at).toISOString() };
});
app.get('/memory/:ns/:key', async (req, reply) => {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  const agent = m ? bySecret.get(sha256(m[1])) : undefined;
  if (!agent) return reply.code(401).send({ error: 'unauthorized' });
  const e = entry.get(agent.id, req.params.ns, req.params.key);
  if (!e) return reply.code(404).send({ error: 'not_found' });
  return { namespace: e.namespace, key: e.key, value: JSON.parse(e.value), version: e.version, updated_at: new Date(e.updated_at).toISOString() };
});
const close = () => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${app.server.address().port}\n`);
