// SQL for facts (per entry version; superseded facts are kept but not returned) and the memory graph.
import type { Db } from '../../../src/store/db.js';
import type { Fact } from '../facts-extract.js';

/** Entries whose facts lag behind their version, oldest first. */
export const entriesDueForFacts = (db: Db, limit: number) =>
  db.all<{ id: number; value: string; text: string; tags: string; version: number }>(
    `SELECT id, memory_value(value) AS value, memory_words(value) AS text, tags, version FROM memory_entries WHERE facts_version < version ORDER BY id LIMIT ?`,
    [limit],
  );

/** The facts one entry version states. */
export interface EntryFacts {
  entryId: number;
  version: number;
  facts: Fact[];
}

// The entries of a recordFacts call that are still at the version their facts were extracted from: ?2 is
// a JSON array of {e: entry id, v: version, f: [{k: kind, s: subject, o: object, n: norm}]}. PostgreSQL reads the
// JSON with jsonb_array_elements and casts the numbers (->> gives text); the statements are otherwise the same.
const CURRENT = {
  sqlite: `WITH cur AS (
  SELECT j.value ->> 'e' AS e, j.value ->> 'v' AS v, j.value -> 'f' AS f
  FROM json_each(?2) j JOIN memory_entries m ON m.id = j.value ->> 'e' AND m.version = j.value ->> 'v')`,
  postgres: `WITH cur AS (
  SELECT CAST(j.value ->> 'e' AS BIGINT) AS e, CAST(j.value ->> 'v' AS BIGINT) AS v, j.value -> 'f' AS f
  FROM jsonb_array_elements(CAST(?2 AS JSONB)) AS j(value) JOIN memory_entries m ON m.id = CAST(j.value ->> 'e' AS BIGINT) AND m.version = CAST(j.value ->> 'v' AS BIGINT))`,
};
// The facts the current entries state, unpacked from the JSON once per statement.
const STATED = {
  sqlite: `stated AS MATERIALIZED (
  SELECT cur.e AS e, cur.v AS v, s.value ->> 'k' AS k, s.value ->> 's' AS s, s.value ->> 'n' AS n, s.value ->> 'o' AS o FROM cur, json_each(cur.f) s)`,
  postgres: `stated AS MATERIALIZED (
  SELECT cur.e AS e, cur.v AS v, s.value ->> 'k' AS k, s.value ->> 's' AS s, s.value ->> 'n' AS n, s.value ->> 'o' AS o FROM cur, jsonb_array_elements(cur.f) AS s(value))`,
};
// Their facts as stored now. Compared with row-value IN against the whole set (one lookup structure per
// statement): a correlated lookup let the planner pick the norm index, and a norm that thousands of entries
// share (a common key path such as n=1) was scanned for every fact.
const ACTIVE = 'SELECT entry_id, kind, norm, object FROM memory_facts WHERE superseded_at IS NULL AND entry_id IN (SELECT e FROM cur)';

/**
 * Records the facts entry versions state, in one batch of four set-wise statements whatever the number
 * of entries and facts: facts a version no longer states are superseded (kept, not returned by default),
 * unchanged ones move to the new version, new ones are added. An entry that moved on to another version
 * meanwhile is skipped (its new version is due in turn).
 */
export async function recordFacts(db: Db, entries: EntryFacts[], now: number): Promise<void> {
  const payload = JSON.stringify(
    entries.map((x) => ({ e: x.entryId, v: x.version, f: x.facts.map((f) => ({ k: f.kind, s: f.subject, o: f.object, n: f.norm })) })),
  );
  const args = [now, payload];
  const [CUR, ST] = [CURRENT[db.dialect], STATED[db.dialect]];
  // One batch: the writer is never held across round trips, so writes do not queue behind fact upkeep.
  await db.batch([
    {
      sql: `${CUR}, ${ST} UPDATE memory_facts SET superseded_at = ?1
       WHERE superseded_at IS NULL AND entry_id IN (SELECT e FROM cur) AND (entry_id, kind, norm, object) NOT IN (SELECT e, k, n, o FROM stated)`,
      params: args,
    },
    { sql: `${CUR} UPDATE memory_facts AS mf SET version = cur.v FROM cur WHERE mf.entry_id = cur.e AND mf.superseded_at IS NULL`, params: args },
    {
      sql: `${CUR}, ${ST} INSERT INTO memory_facts (entry_id, kind, subject, object, norm, version, created_at)
       SELECT e, k, s, o, n, v, ?1 FROM stated WHERE (e, k, n, o) NOT IN (${ACTIVE})`,
      params: args,
    },
    { sql: `${CUR} UPDATE memory_entries SET facts_version = cur.v FROM cur WHERE memory_entries.id = cur.e`, params: args },
  ]);
}

export interface FactRow {
  kind: string;
  subject: string;
  object: string;
  version: number;
  superseded_at: number | null;
  namespace: string;
  key: string;
  owner: string | null;
}

/**
 * Facts matching a topic or entity, from the caller's own and public entries. Each term (a word's lead: every form
 * of the word starts with it) matches a substring of the normalised subject or of the object; with `all` a fact must
 * match every term, otherwise any, the facts matching most terms first. No term: every fact.
 */
export function searchFacts(
  db: Db,
  o: { terms: string[]; all: boolean; callerId: string | null; namespace: string | null; limit: number; includeSuperseded: boolean; now: number },
) {
  // ?1-?5 as below, then one parameter per term.
  // A term is letters and digits only: nothing in it is a LIKE wildcard.
  const hit = (i: number) => `(f.norm LIKE '%' || ?${i + 6} || '%' OR lower(f.object) LIKE '%' || ?${i + 6} || '%')`;
  const hits = o.terms.map((_, i) => hit(i));
  const matches = hits.length === 0 ? '1 = 1' : hits.join(o.all ? ' AND ' : ' OR ');
  // No term: no count to order by (a bare `ORDER BY 0` is a column position, refused by both databases).
  const held = hits.length === 0 ? '' : `${hits.map((h) => `CASE WHEN ${h} THEN 1 ELSE 0 END`).join(' + ')} DESC, `;
  return db.all<FactRow>(
    `SELECT f.kind, f.subject, f.object, f.version, f.superseded_at, e.namespace, e.key, a.handle AS owner
     FROM memory_facts f JOIN memory_entries e ON e.id = f.entry_id LEFT JOIN agents a ON a.id = e.agent_id
     WHERE (${matches})
       AND (?1 = 1 OR f.superseded_at IS NULL) AND (CAST(?2 AS TEXT) IS NULL OR e.namespace = ?2)
       AND (e.expires_at IS NULL OR e.expires_at > ?5)
       AND (e.agent_id = ?3 OR e.visibility = 'public' OR e.agent_id IS NULL)
     ORDER BY ${held}f.superseded_at IS NOT NULL, e.updated_at DESC, f.id LIMIT ?4`,
    [o.includeSuperseded ? 1 : 0, o.namespace, o.callerId, o.limit, o.now, ...o.terms],
  );
}

export const factCount = async (db: Db, agentId: string): Promise<number> =>
  (await db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM memory_facts f JOIN memory_entries e ON e.id = f.entry_id WHERE e.agent_id = ? AND f.superseded_at IS NULL',
    [agentId],
  ))?.n ?? 0;

/** Active non-path facts of an agent's own entries, most recent entries first (the graph's raw material). */
export const graphFacts = (db: Db, agentId: string, limit: number, now: number) =>
  db.all<{ entry_id: number; namespace: string; key: string; kind: string; subject: string; object: string; norm: string }>(
    `SELECT e.id AS entry_id, e.namespace, e.key, f.kind, f.subject, f.object, f.norm
     FROM memory_entries e JOIN memory_facts f ON f.entry_id = e.id AND f.superseded_at IS NULL AND f.kind <> 'path'
     WHERE e.agent_id = ? AND (e.expires_at IS NULL OR e.expires_at > ?)
     ORDER BY e.updated_at DESC LIMIT ?`,
    [agentId, now, limit],
  );
