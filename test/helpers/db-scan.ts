// Walks every table and column of the database looking for a value (an agent's id or handle, a secret), on
// SQLite (sqlite_master, leaving out FTS5 shadow tables) or PostgreSQL (information_schema, leaving out the
// tsvector columns, whose tokens are the row's own text again).
import type { Db } from '../../src/store/db.js';

export interface Hit {
  table: string;
  column: string;
  value: string;
}

async function columns(db: Db): Promise<{ table: string; column: string }[]> {
  if (db.dialect === 'postgres') {
    return db.all<{ table: string; column: string }>(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type <> 'tsvector' ORDER BY table_name, ordinal_position`,
    );
  }
  const tables = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT GLOB '*_fts_*'");
  const out: { table: string; column: string }[] = [];
  for (const { name } of tables) {
    for (const col of await db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${name}')`)) out.push({ table: name, column: col.name });
  }
  return out;
}

export async function scanDatabase(db: Db, needles: string[]): Promise<Hit[]> {
  // strpos/instr over the column as text (bytes as their hex on PostgreSQL, as a blob's text on SQLite).
  const find = db.dialect === 'postgres' ? (c: string) => `strpos(CAST("${c}" AS TEXT), CAST(? AS TEXT)) > 0` : (c: string) => `instr(CAST("${c}" AS TEXT), ?) > 0`;
  const hits: Hit[] = [];
  for (const { table, column } of await columns(db)) {
    for (const needle of needles) {
      const rows = await db.all<{ v: unknown }>(`SELECT CAST("${column}" AS TEXT) AS v FROM "${table}" WHERE ${find(column)} LIMIT 3`, [needle]);
      for (const r of rows) hits.push({ table, column, value: String(r.v).slice(0, 120) });
    }
  }
  return hits;
}
