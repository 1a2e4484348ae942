// SQL for the entries around a memory entry in its namespace (by time or by key), as far as the caller may read
// them: every entry of a namespace the caller owns or is shared, only the public ones of another agent's. A relevance
// search reads where its best hits' neighbours are; memory_search's `neighbors` returns them.
import type { Db } from '../../../src/store/db.js';
import { COLUMNS, readWords, type Candidate } from './search.js';

/** Centres as JSON: [[id, 1 when the caller may read the centre's whole namespace, else 0], …]. */
const CENTRES = {
  sqlite: `SELECT c.id, ifnull(c.agent_id, '') AS o, c.namespace, c.created_at, c.key, j.value ->> 1 AS open
           FROM json_each(?1) j JOIN memory_entries c ON c.id = j.value ->> 0`,
  postgres: `SELECT c.id, coalesce(c.agent_id, '') AS o, c.namespace, c.created_at, c.key, CAST(j.value ->> 1 AS INTEGER) AS open
           FROM jsonb_array_elements(CAST(?1 AS JSONB)) AS j(value) JOIN memory_entries c ON c.id = CAST(j.value ->> 0 AS BIGINT)`,
};
/** Where a neighbour may be: readable (the whole namespace when open, else public entries only) and live. */
const NEAR = (owner: string) =>
  `${owner} = c.o AND x.namespace = c.namespace AND (c.open = 1 OR x.visibility = 'public') AND (x.expires_at IS NULL OR x.expires_at > ?2)`;
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

/** One statement: the neighbours of every centre, with their columns and words or their ids alone. ?3 is the reach. */
function neighbourSql(dialect: Db['dialect'], order: NeighbourOrder, columns: boolean): string {
  // It starts with SELECT, the mark of a read that a reader thread may take (a statement starting WITH goes to the writer).
  const nb = `(WITH c AS MATERIALIZED (${CENTRES[dialect]}) ${neighbourRows(dialect, order)}) nb`;
  return columns
    ? `SELECT nb.centre, nb."offset", ${COLUMNS[dialect]} FROM ${nb} JOIN memory_entries e ON e.id = nb.id LEFT JOIN agents a ON a.id = e.agent_id`
    : `SELECT nb.centre, nb."offset", nb.id FROM ${nb}`;
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
  centres: { id: number; open: boolean }[];
  reach: number;
  order: NeighbourOrder;
  now: number;
}

const neighbourParams = (o: NeighbourQuery) => [JSON.stringify(o.centres.map((c) => [c.id, c.open ? 1 : 0])), o.now, o.reach];

/**
 * Up to `reach` entries on each side of each centre in its namespace, by time (created_at, then id) or by key, that
 * the caller may read: every entry of a namespace the caller owns or is shared, only public ones of another's.
 */
export const neighbourEntries = (db: Db, o: NeighbourQuery): Promise<Neighbour[]> =>
  o.centres.length === 0 || o.reach <= 0 ? Promise.resolve([]) : readWords(db, db.all<Neighbour>(neighbourSql(db.dialect, o.order, true), neighbourParams(o), { heavy: true }));

/** Where the neighbours are, without reading them (neighbourEntries' rows, ids only). */
export const neighbourIds = (db: Db, o: NeighbourQuery): Promise<Adjacency[]> =>
  o.centres.length === 0 || o.reach <= 0 ? Promise.resolve([]) : db.all<Adjacency>(neighbourSql(db.dialect, o.order, false), neighbourParams(o), { heavy: true });
