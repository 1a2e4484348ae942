// SQL for catalogues: first-seen times (/new), template runs, and the live counts of /intelligence.
import type { Db } from '../../src/store/db.js';

/** Records first-seen times for items not seen before; existing times are kept. */
export async function noteSeen(db: Db, items: { kind: string; name: string }[], now: number): Promise<void> {
  if (items.length === 0) return;
  await db.run(
    db.dialect === 'postgres'
      ? "INSERT INTO catalog_first_seen (kind, name, first_seen_at) SELECT i ->> 'kind', i ->> 'name', ? FROM jsonb_array_elements(CAST(? AS JSONB)) AS items(i) ON CONFLICT DO NOTHING"
      : "INSERT OR IGNORE INTO catalog_first_seen (kind, name, first_seen_at) SELECT json_extract(value, '$.kind'), json_extract(value, '$.name'), ? FROM json_each(?)",
    [now, JSON.stringify(items)],
  );
}

export const firstSeen = (db: Db) => db.all<{ kind: string; name: string; first_seen_at: number }>('SELECT kind, name, first_seen_at FROM catalog_first_seen');

export async function recordTemplateRun(db: Db, r: { agentId: string | null; slug: string; ok: boolean; failedStep: string | null; now: number }): Promise<void> {
  await db.run('INSERT INTO template_runs (agent_id, slug, ok, failed_step, created_at) VALUES (?, ?, ?, ?, ?)', [r.agentId, r.slug, r.ok ? 1 : 0, r.failedStep, r.now]);
}

/** Runs per template since `since` (ms). */
export const templateRunsSince = (db: Db, since: number) =>
  db.all<{ slug: string; runs: number; ok: number }>('SELECT slug, COUNT(*) AS runs, SUM(ok) AS ok FROM template_runs WHERE created_at >= ? GROUP BY slug', [since]);

/** Gateway-wide counts for /intelligence, one query. */
export async function ecosystemCounts(db: Db, since30d: number) {
  const row = await db.get<Record<string, number | null>>(
    `SELECT
       (SELECT COUNT(*) FROM agents) AS agents,
       (SELECT COUNT(*) FROM agents WHERE created_at >= ?1) AS agents_new_30d,
       (SELECT n FROM wall_counters WHERE name = 'posts') AS posts,
       (SELECT COUNT(*) FROM wall_reactions) AS reactions,
       (SELECT COUNT(*) FROM follows) AS follows,
       (SELECT COUNT(*) FROM agent_badges) AS badges_awarded,
       (SELECT SUM(bytes) FROM memory_usage) AS memory_bytes,
       (SELECT SUM(entries) FROM memory_usage) AS memory_entries`,
    [since30d],
  );
  const n = (k: string) => Number(row?.[k] ?? 0);
  return {
    agents: n('agents'),
    agentsNew30d: n('agents_new_30d'),
    posts: n('posts'),
    reactions: n('reactions'),
    follows: n('follows'),
    badgesAwarded: n('badges_awarded'),
    memoryBytes: n('memory_bytes'),
    memoryEntries: n('memory_entries'),
  };
}
