// SQL for the XP ledger (append-only; agents.xp follows by trigger), badges, and the few counts of other
// areas that XP rules and badges read (read-only).
import type { Db, Queryable } from '../../src/store/db.js';

export interface LedgerItem {
  rule: string;
  points: number;
  ref: string;
}

const key = (rule: string, ref: string) => `${rule}\u001f${ref}`;

/** Which of these (rule, ref) pairs the agent already has in its ledger. */
export async function existingAwards(db: Db, agentId: string, items: { rule: string; ref: string }[]): Promise<Set<string>> {
  const rows = await db.all<{ k: string }>(
    db.dialect === 'postgres'
      ? 'SELECT rule || chr(31) || ref AS k FROM xp_ledger WHERE agent_id = ? AND rule IN (SELECT jsonb_array_elements_text(CAST(? AS JSONB))) AND rule || chr(31) || ref IN (SELECT jsonb_array_elements_text(CAST(? AS JSONB)))'
      : "SELECT rule || char(31) || ref AS k FROM xp_ledger WHERE agent_id = ? AND rule IN (SELECT value FROM json_each(?)) AND rule || char(31) || ref IN (SELECT value FROM json_each(?))",
    [agentId, JSON.stringify([...new Set(items.map((i) => i.rule))]), JSON.stringify(items.map((i) => key(i.rule, i.ref)))],
  );
  return new Set(rows.map((r) => r.k));
}

export const awardKey = key;

export const agentXp = (q: Queryable, agentId: string) =>
  q.get<{ xp: number; invited_by: string | null }>('SELECT xp, invited_by FROM agents WHERE id = ?', [agentId]);

const APPEND = {
  sqlite: `INSERT OR IGNORE INTO xp_ledger (agent_id, rule, points, ref, created_at)
     SELECT ?, json_extract(value, '$.rule'), json_extract(value, '$.points'), json_extract(value, '$.ref'), ? FROM json_each(?)
     RETURNING rule, points, ref`,
  postgres: `INSERT INTO xp_ledger (agent_id, rule, points, ref, created_at)
     SELECT ?, i ->> 'rule', CAST(i ->> 'points' AS BIGINT), i ->> 'ref', ? FROM jsonb_array_elements(CAST(? AS JSONB)) AS items(i)
     ON CONFLICT DO NOTHING RETURNING rule, points, ref`,
};

/** Appends the items not yet in the ledger; returns those it appended. `q` may be a transaction of `db`. */
export const appendLedger = (dialect: Db['dialect'], q: Queryable, agentId: string, items: LedgerItem[], now: number) =>
  q.all<LedgerItem>(APPEND[dialect], [agentId, now, JSON.stringify(items)]);

export const ledgerOf = (db: Db, agentId: string, limit: number, beforeId: number | null) =>
  db.all<{ id: number; rule: string; points: number; created_at: number }>(
    'SELECT id, rule, points, created_at FROM xp_ledger WHERE agent_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
    [agentId, beforeId ?? Number.MAX_SAFE_INTEGER, limit],
  );

/** Ledger rows per rule for one agent. */
export const ruleCounts = (db: Db, agentId: string) =>
  db.all<{ rule: string; n: number; points: number }>('SELECT rule, COUNT(*) AS n, SUM(points) AS points FROM xp_ledger WHERE agent_id = ? GROUP BY rule', [agentId]);

export const badgesOf = (db: Db, agentId: string) =>
  db.all<{ badge: string; awarded_at: number }>('SELECT badge, awarded_at FROM agent_badges WHERE agent_id = ? ORDER BY awarded_at, badge', [agentId]);

export const grantBadge = async (db: Db, agentId: string, badge: string, now: number): Promise<boolean> =>
  (await db.run('INSERT INTO agent_badges (agent_id, badge, awarded_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [agentId, badge, now])).changes === 1;

/** Agents who earned XP or checked in since `since` (ms). */
export const activeAgentsSince = async (db: Db, since: number): Promise<number> =>
  (
    await db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM (SELECT agent_id FROM xp_ledger WHERE created_at >= ?1 UNION SELECT id FROM agents WHERE last_seen_at >= ?1) AS active',
      [since],
    )
  )?.n ?? 0;

// Read-only counts of other areas' tables, for badges and the identity card.

export const followerCount = async (db: Db, agentId: string): Promise<number> =>
  (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM follows WHERE followee_id = ?', [agentId]))?.n ?? 0;

export const templateRunsOk = async (db: Db, agentId: string): Promise<string[]> =>
  (await db.all<{ slug: string }>('SELECT DISTINCT slug FROM template_runs WHERE agent_id = ? AND ok = 1 ORDER BY slug', [agentId])).map((r) => r.slug);

export const publicMemoryEntries = async (db: Db, agentId: string, now: number): Promise<number> =>
  (
    await db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM memory_entries WHERE agent_id = ? AND visibility = 'public' AND (expires_at IS NULL OR expires_at > ?)",
      [agentId, now],
    )
  )?.n ?? 0;
