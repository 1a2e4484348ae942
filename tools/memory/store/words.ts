// The words of a stored value, computed in SQL where they are needed (search snippets, facts, embeddings): the
// entries keep the value only (migration 032). These are flattenText's words (tools/memory/facts-extract.ts):
// object keys, strings, numbers and booleans in document order, the first 64 KiB. SQLite walks the JSON (read
// through memory_value, src/store/value-codec.ts) with json_tree, as the index triggers of migration 032 do; PostgreSQL calls memory_words (pg migration 032), which
// its generated full-text column calls too.
import type { Db } from '../../../src/store/db.js';

const SQLITE = (value: string) => `(SELECT substr(group_concat(w.w, ' ' ORDER BY w.id), 1, 65536) FROM (
  SELECT t.id, CASE WHEN typeof(t.key) = 'text' THEN t.key || ' ' ELSE '' END
    || CASE t.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN '' WHEN 'object' THEN '' WHEN 'array' THEN '' ELSE t.atom END AS w
  FROM json_tree(memory_value(${value})) t) w WHERE w.w <> '')`;

/** A SQL expression of the words of the JSON column `value` (e.g. `e.value`), '' or NULL when it has none. */
export const wordsOf = (dialect: Db['dialect'], value: string): string => (dialect === 'sqlite' ? SQLITE(value) : `memory_words(${value})`);
