// Walks every table and column of the database looking for a value (an agent's id or handle).
import type { Db } from '../../src/store/db.js';

export interface Hit {
  table: string;
  column: string;
  value: string;
}

export async function scanDatabase(db: Db, needles: string[]): Promise<Hit[]> {
  const tables = await db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT GLOB '*_fts_*'",
  );
  const hits: Hit[] = [];
  for (const { name } of tables) {
    const cols = await db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${name}')`);
    for (const col of cols) {
      for (const needle of needles) {
        const rows = await db.all<{ v: unknown }>(
          `SELECT CAST("${col.name}" AS TEXT) AS v FROM "${name}" WHERE instr(CAST("${col.name}" AS TEXT), ?) > 0 LIMIT 3`,
          [needle],
        );
        for (const r of rows) hits.push({ table: name, column: col.name, value: String(r.v).slice(0, 120) });
      }
    }
  }
  return hits;
}
