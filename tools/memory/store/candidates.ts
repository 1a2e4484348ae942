// SQL that finds the entries a relevance search ranks: which visible entries hold each query term, then those
// entries with their words. The visibility rule is in the index query itself (own entries, entries shared with the
// caller, public entries and the scratchpad). Nothing here ranks with the store's own scoring (FTS5's bm25,
// PostgreSQL's ts_rank): relevance.ts does, from what both stores return alike, so both rank the same.
//
// SQLite: FTS5, asked in two tables: memory_fts for the caller's own and shared entries (under their scope tokens),
// memory_fts_pub for public ones (migration 033). PostgreSQL: the tsvector `memory_entries.fts`, scope tokens weight
// D ('simple'), words A/B/C stemmed by 'gateway_porter' (pg migration 040), as FTS5's porter tokenizer stems them.
import type { Db } from '../../../src/store/db.js';
import type { QueryTerm } from '../query-terms.js';
import { COLUMNS, namespaceToken, NO_SCOPE, ownerToken, readWords, shareToken, type Candidate } from './search.js';

export interface Scope {
  callerId: string | null;
  shared: { owner_id: string; namespace: string }[];
  namespace: string | null;
}

const fts5Term = (t: QueryTerm) => `"${t.word}"${t.prefix ? '*' : ''}`;

/**
 * A term as a PostgreSQL tsquery over the words (weights A-C): its operand and the configuration that parses it as
 * the index holds it (pg migration 040: without diacritics, Porter stems but words of one or two characters as
 * written, as FTS5).
 */
export const tsTerm = (t: QueryTerm): { config: string; operand: string } => ({
  config: t.word.length < 3 ? 'gateway_plain' : 'gateway_porter',
  operand: `'${t.word}':${t.prefix ? '*' : ''}ABC`,
});

/** Terms joined by AND as a PostgreSQL tsquery expression, their operands as parameters numbered from `first`. */
export function tsAll(terms: readonly QueryTerm[], first: number): { sql: string; params: string[] } {
  const parts = terms.map(tsTerm);
  return { sql: parts.map((p, i) => `to_tsquery('${p.config}', ?${first + i})`).join(' && '), params: parts.map((p) => p.operand) };
}

/** The caller's own and shared scope tokens (public entries are found apart). */
const privateScope = (s: Scope) => [...(s.callerId ? [ownerToken(s.callerId)] : []), ...s.shared.map((x) => shareToken(x.owner_id, x.namespace))];

/** The caller's SQLite index queries for an FTS5 expression of words: the private index's and the public one's. */
function fts5Scoped(s: Scope, words: string): { priv: string; pub: string } {
  const mine = privateScope(s);
  const w = `{namespace key text tags} : (${words})${s.namespace ? ` AND scope : ${namespaceToken(s.namespace)}` : ''}`;
  return { priv: `scope : (${mine.length ? mine.join(' OR ') : NO_SCOPE}) AND ${w}`, pub: w };
}

/** The caller's scope as a PostgreSQL tsquery text (weight D, 'simple'). */
const tsScope = (s: Scope) => `(${['pub', ...privateScope(s)].map((t) => `'${t}':D`).join(' | ')})${s.namespace ? ` & '${namespaceToken(s.namespace)}':D` : ''}`;

/** Newest first, at most this many entries a term: a term held by more weighs little, and the cost stays bounded. */
export const PER_TERM = 2000;

/**
 * For each term, the ids of the visible entries holding it (the newest PER_TERM): `t` is the term's index. An entry
 * expired but not yet swept may be among them (entriesByIds leaves it out). Each term's ids travel as one JSON array
 * (a row per id cost more to hand from the reader thread than to find).
 */
export async function termHolders(db: Db, terms: readonly QueryTerm[], s: Scope): Promise<{ id: number; t: number }[]> {
  if (terms.length === 0) return [];
  const params: string[] = [];
  const configs: string[] = [];
  for (const term of terms) {
    if (db.dialect === 'sqlite') {
      const q = fts5Scoped(s, fts5Term(term));
      params.push(q.priv, q.pub);
    } else {
      const w = tsTerm(term);
      params.push(tsScope(s), w.operand);
      configs.push(w.config);
    }
  }
  const rows = await db.all<{ t: number; ids: string | number[] | null; more: string | null }>(holdersSql(db.dialect, terms.length, configs.join(',')), params, { heavy: true });
  const list = (v: string | number[] | null): number[] => (v === null ? [] : typeof v === 'string' ? (JSON.parse(v) as number[]) : v);
  // SQLite's two indexes give a term's newest in each; the newest of both are kept, as PostgreSQL's one index gives.
  return rows.flatMap((r) =>
    [...list(r.ids), ...list(r.more)]
      .map(Number)
      .sort((a, b) => b - a)
      .slice(0, PER_TERM)
      .map((id) => ({ id, t: r.t })),
  );
}

/** termHolders' statement for `count` terms (on PostgreSQL, each parsed with its configuration), built once. */
const holdersSql = (() => {
  const made = new Map<string, string>();
  return (dialect: Db['dialect'], count: number, configs: string): string => {
    const key = `${dialect}/${count}/${configs}`;
    let sql = made.get(key);
    if (sql !== undefined) return sql;
    const newest = (from: string) => `(SELECT json_${dialect === 'sqlite' ? 'group_array' : 'agg'}(id) FROM (${from} ORDER BY id DESC LIMIT ${PER_TERM}) AS h)`;
    const cfg = configs.split(',');
    sql = Array.from({ length: count }, (_, i) => {
      const [a, b] = [2 * i + 1, 2 * i + 2];
      if (dialect === 'sqlite') {
        const side = (table: string, n: number) => newest(`SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ?${n}`);
        return `SELECT ${i} AS t, ${side('memory_fts', a)} AS ids, ${side('memory_fts_pub', b)} AS more`;
      }
      return `SELECT ${i} AS t, ${newest(`SELECT m.id FROM memory_entries m WHERE m.fts @@ (to_tsquery('simple', ?${a}) && to_tsquery('${cfg[i]}', ?${b}))`)} AS ids, NULL AS more`;
    }).join(' UNION ALL ');
    // Bounded: on PostgreSQL the configurations make up to 2^16 shapes of 16 terms.
    if (made.size >= 512) made.clear();
    made.set(key, sql);
    return sql;
  };
})();

const BY_IDS = {
  sqlite: `SELECT ${COLUMNS.sqlite} FROM json_each(?1) j JOIN memory_entries e ON e.id = j.value LEFT JOIN agents a ON a.id = e.agent_id
           WHERE e.expires_at IS NULL OR e.expires_at > ?2`,
  postgres: `SELECT ${COLUMNS.postgres} FROM jsonb_array_elements_text(CAST(?1 AS JSONB)) AS j(value) JOIN memory_entries e ON e.id = CAST(j.value AS BIGINT)
           LEFT JOIN agents a ON a.id = e.agent_id WHERE e.expires_at IS NULL OR e.expires_at > ?2`,
};

/** The live entries of these ids with their words. */
export const entriesByIds = (db: Db, ids: number[], now: number): Promise<Candidate[]> =>
  ids.length === 0 ? Promise.resolve([]) : readWords(db, db.all<Candidate>(BY_IDS[db.dialect], [JSON.stringify(ids), now], { heavy: true }));

/** The ids of the newest `limit` visible entries holding every term (the all-words filter). */
export async function idsHoldingAll(db: Db, terms: readonly QueryTerm[], s: Scope, limit: number): Promise<{ id: number }[]> {
  if (terms.length === 0) return [];
  if (db.dialect === 'sqlite') {
    const q = fts5Scoped(s, terms.map(fts5Term).join(' AND '));
    const side = (table: string, n: number) => `SELECT * FROM (SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ?${n} ORDER BY rowid DESC LIMIT ?2)`;
    return db.all(`SELECT id FROM (${side('memory_fts', 1)} UNION ALL ${side('memory_fts_pub', 3)}) ORDER BY id DESC LIMIT ?2`, [q.priv, limit, q.pub], { heavy: true });
  }
  const words = tsAll(terms, 3);
  return db.all(
    `SELECT m.id FROM memory_entries m WHERE m.fts @@ (to_tsquery('simple', ?1) && ${words.sql}) ORDER BY m.id DESC LIMIT ?2`,
    [tsScope(s), limit, ...words.params],
    { heavy: true },
  );
}
