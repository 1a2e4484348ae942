// SQL for the entries around a memory entry in its namespace (by time or by key), as far as the caller may read
// them: every entry of a namespace the caller owns or is shared, only the public ones of another agent's. A relevance
// search reads where its best hits' neighbours are; memory_search's `neighbors` returns them.
import type { Db } from '../../../src/store/db.js';
import { COLUMNS, readWords, type Candidate } from './search.js';

/**
 * The centres (parameter `n`, a JSON array of ids), each `open` when the caller (?4) may read its whole namespace:
 * its own, the scratchpad, or shared with it (memory_acl).
 */
const OPEN = `(c.agent_id IS NULL OR c.agent_id = ?4 OR EXISTS (SELECT 1 FROM memory_acl acl WHERE acl.owner_id = c.agent_id AND acl.namespace = c.namespace AND acl.grantee_id = ?4))`;
const CENTRES = {
  sqlite: (n: number) => `SELECT c.id, ifnull(c.agent_id, '') AS o, c.namespace, c.created_at, c.key, ${OPEN} AS open FROM json_each(?${n}) j JOIN memory_entries c ON c.id = j.value`,
  postgres: (n: number) => `SELECT c.id, coalesce(c.agent_id, '') AS o, c.namespace, c.created_at, c.key, ${OPEN} AS open
           FROM jsonb_array_elements_text(CAST(?${n} AS JSONB)) AS j(value) JOIN memory_entries c ON c.id = CAST(j.value AS BIGINT)`,
};
/** Where a neighbour may be: readable (the whole namespace when open, else public entries only) and live. */
const NEAR = (owner: string) =>
  `${owner} = c.o AND x.namespace = c.namespace AND (c.open OR x.visibility = 'public') AND (x.expires_at IS NULL OR x.expires_at > ?2)`;
/**
 * The ids of up to `reach` entries on one side of the centre `c`, nearest first, each side seeking the timeline (or
 * key) index once. By time, entries written in the same millisecond (a bulk write) are ordered by id: PostgreSQL
 * seeks the row value (created_at, id); SQLite cannot seek a row value that ends with the rowid, so it takes the same
 * millisecond and the earlier (or later) ones apart, each a seek, and merges the few rows. A bound on created_at alone
 * would step over every entry of that millisecond, thousands after a bulk import.
 */
function sideIds(dialect: Db['dialect'], order: NeighbourOrder, before: boolean): string {
  const near = NEAR(dialect === 'sqlite' ? "ifnull(x.agent_id, '')" : "coalesce(x.agent_id, '')");
  const [lt, desc] = before ? ['<', ' DESC'] : ['>', ''];
  // PostgreSQL numbers the rows as they come (the window's order is the index's, so the limit still stops the scan).
  if (dialect === 'postgres') {
    const [where, by] = order === 'key' ? [`x.key ${lt} c.key`, `x.key${desc}`] : [`(x.created_at, x.id) ${lt} (c.created_at, c.id)`, `x.created_at${desc}, x.id${desc}`];
    return `SELECT x.id, row_number() OVER (ORDER BY ${by}) AS n FROM memory_entries x WHERE ${near} AND ${where} ORDER BY ${by} LIMIT ?3`;
  }
  if (order === 'key') return `SELECT x.id FROM memory_entries x WHERE ${near} AND x.key ${lt} c.key ORDER BY x.key${desc} LIMIT ?3`;
  const same = `SELECT x.id, x.created_at FROM memory_entries x WHERE ${near} AND x.created_at = c.created_at AND x.id ${lt} c.id ORDER BY x.id${desc} LIMIT ?3`;
  const other = `SELECT x.id, x.created_at FROM memory_entries x WHERE ${near} AND x.created_at ${lt} c.created_at ORDER BY x.created_at${desc}, x.id${desc} LIMIT ?3`;
  return `SELECT id FROM (SELECT * FROM (${same}) UNION ALL SELECT * FROM (${other})) ORDER BY created_at${desc}, id${desc} LIMIT ?3`;
}

/** Each centre's neighbours on both sides as (centre, offset, id) rows: one subquery a side, its ids numbered. */
function neighbourRows(dialect: Db['dialect'], order: NeighbourOrder): string {
  const side = (before: boolean) =>
    dialect === 'sqlite'
      ? `SELECT c.id AS centre, ${before ? '-' : ''}(j.key + 1) AS "offset", j.value AS id FROM c, json_each((SELECT json_group_array(id) FROM (${sideIds(dialect, order, before)}))) j`
      : `SELECT c.id AS centre, ${before ? '-' : ''}s.n AS "offset", s.id FROM c CROSS JOIN LATERAL (${sideIds(dialect, order, before)}) s`;
  return `${side(true)} UNION ALL ${side(false)}`;
}

/** NULL for each of COLUMNS before the words: the places' row in entriesAndNeighbours' statement holds them alone. */
const BEFORE_TEXT = Array.from({ length: COLUMNS.sqlite.split(',').length - 1 }, () => 'NULL').join(', ');
const NEIGHBOURS = (dialect: Db['dialect'], order: NeighbourOrder, centres: number) => `(WITH c AS MATERIALIZED (${CENTRES[dialect](centres)}) ${neighbourRows(dialect, order)}) nb`;

/**
 * The statements, built once (a search statement runs to kilobytes). Each starts with SELECT, the mark of a read that
 * a reader thread may take (one starting WITH goes to the writer). ?1 the centres, ?2 now, ?3 the reach, ?4 the caller,
 * and for `with` ?5 the entries to read.
 */
const SQL = memo((dialect: Db['dialect'], order: NeighbourOrder, shape: 'entries' | 'with') => {
  const nb = NEIGHBOURS(dialect, order, 1);
  const cols = COLUMNS[dialect];
  if (shape === 'entries') return `SELECT nb.centre, nb."offset", ${cols} FROM ${nb} JOIN memory_entries e ON e.id = nb.id LEFT JOIN agents a ON a.id = e.agent_id`;
  const byIds =
    dialect === 'sqlite'
      ? 'FROM json_each(?5) j JOIN memory_entries e ON e.id = j.value'
      : 'FROM jsonb_array_elements_text(CAST(?5 AS JSONB)) AS j(value) JOIN memory_entries e ON e.id = CAST(j.value AS BIGINT)';
  // The places travel as one JSON array in the last row's text: a row each cost more to hand from the reader thread.
  const places = dialect === 'sqlite' ? 'json_group_array(json_array(nb.centre, nb."offset", nb.id))' : 'CAST(json_agg(json_build_array(nb.centre, nb."offset", nb.id)) AS TEXT)';
  return `SELECT 0 AS places, ${cols} ${byIds} LEFT JOIN agents a ON a.id = e.agent_id WHERE e.expires_at IS NULL OR e.expires_at > ?2
    UNION ALL SELECT 1, ${BEFORE_TEXT}, ${places} FROM ${nb}`;
});

function memo<A extends unknown[]>(build: (...args: A) => string): (...args: A) => string {
  const made = new Map<string, string>();
  return (...args) => {
    const key = args.join('/');
    let sql = made.get(key);
    if (sql === undefined) made.set(key, (sql = build(...args)));
    return sql;
  };
}

export type NeighbourOrder = 'time' | 'key';
/** Where an entry sits: `offset` entries from `centre` in its namespace (-1 just before, +1 just after). */
export interface Adjacency {
  centre: number;
  id: number;
  offset: number;
}
export type Neighbour = Candidate & Adjacency;

interface NeighbourQuery {
  ids: number[];
  /** Whose neighbours (default: every one of `ids`). */
  centres?: number[];
  callerId: string | null;
  reach: number;
  order: NeighbourOrder;
  now: number;
}

const params = (o: NeighbourQuery) => [JSON.stringify(o.centres ?? o.ids), o.now, o.reach, o.callerId];
const none = (o: NeighbourQuery) => o.ids.length === 0 || o.reach <= 0;

/**
 * Up to `reach` entries on each side of each entry in `ids` in its namespace, by time (created_at, then id) or by key,
 * that the caller may read: every entry of a namespace the caller owns or is shared, only public ones of another's.
 */
export const neighbourEntries = (db: Db, o: NeighbourQuery): Promise<Neighbour[]> =>
  none(o) ? Promise.resolve([]) : readWords(db, db.all<Neighbour>(SQL(db.dialect, o.order, 'entries'), params(o), { heavy: true }));

/**
 * The live entries of `ids` with their words, and where their neighbours are (ids only): one statement, for a search
 * that ranks entries with the ones around them.
 */
export async function entriesAndNeighbours(db: Db, o: NeighbourQuery): Promise<{ entries: Candidate[]; adjacency: Adjacency[] }> {
  if (o.ids.length === 0) return { entries: [], adjacency: [] };
  const rows = await db.all<Candidate & { places: number }>(SQL(db.dialect, o.order, 'with'), [...params(o), JSON.stringify(o.ids)], { heavy: true });
  const entries: Candidate[] = [];
  let adjacency: Adjacency[] = [];
  for (const { places, ...r } of rows) {
    if (!places) entries.push(r);
    else adjacency = ((JSON.parse(r.text ?? '[]') ?? []) as [number, number, number | null][]).filter((p) => p[2] !== null).map(([centre, offset, id]) => ({ centre, offset, id: id! }));
  }
  return { entries: await readWords(db, Promise.resolve(entries)), adjacency };
}
