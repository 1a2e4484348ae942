-- PostgreSQL port of migrations/007_memory_search_scope.sql. Search visibility inside the full-text index: each
-- entry carries scope tokens (its owner, "pub" when public or in the scratchpad, its owner+namespace for
-- shares, its namespace), so a search asks the index for "visible to me AND matches" and ranks only those.
--
-- SQLite's scope is a VIRTUAL generated column; PostgreSQL 14 has only STORED ones. hex() is sqlite_hex()
-- below (uppercase hex of the UTF-8 bytes, '' for NULL, as SQLite's hex()), so the tokens are the ones
-- tools/memory/store/search.ts computes. A generated column cannot read another, so fts repeats the scope
-- expression. The scope tokens go into memory_entries.fts with weight 'D' (the content has 'A'..'C'), which
-- is FTS5's column filter `scope : (...)`: a scope term is queried as 'token':D and content terms as
-- 'word':ABC; ts_rank('{0, 0.25, 0.5, 1}', fts, q) weighs key 4, tags 2, namespace/text 1 and scope 0, as
-- bm25(1.0, 4.0, 1.0, 2.0, 0.0) did. The 'simple' configuration lower-cases the (uppercase hex) tokens.
CREATE FUNCTION sqlite_hex(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT upper(encode(convert_to(coalesce(s, ''), 'UTF8'), 'hex')) $$;

ALTER TABLE memory_entries ADD COLUMN scope TEXT GENERATED ALWAYS AS (
  CASE WHEN agent_id IS NULL THEN 'pub' ELSE 'o' || sqlite_hex(agent_id) || ' n' || sqlite_hex(agent_id || '/' || namespace) || CASE WHEN visibility = 'public' THEN ' pub' ELSE '' END END
  || ' x' || sqlite_hex(namespace)
) STORED;

-- DROP TABLE memory_fts + CREATE VIRTUAL TABLE + 'rebuild': the column is dropped and added again (with its
-- index), which computes it for every existing row.
ALTER TABLE memory_entries DROP COLUMN fts;
ALTER TABLE memory_entries ADD COLUMN fts tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', fts5_words(key)), 'A')
  || setweight(to_tsvector('simple', fts5_words(tags::text)), 'B')
  || setweight(to_tsvector('simple', fts5_words(namespace)), 'C')
  || setweight(to_tsvector('simple', fts5_words(text)), 'C')
  || setweight(to_tsvector('simple',
       CASE WHEN agent_id IS NULL THEN 'pub' ELSE 'o' || sqlite_hex(agent_id) || ' n' || sqlite_hex(agent_id || '/' || namespace) || CASE WHEN visibility = 'public' THEN ' pub' ELSE '' END END
       || ' x' || sqlite_hex(namespace)), 'D')
) STORED;
CREATE INDEX memory_entries_fts ON memory_entries USING gin (fts);

-- The triggers SQLite drops and creates again here differ from 003's only in their memory_fts statements,
-- which the generated column replaces: 003's functions stand.
