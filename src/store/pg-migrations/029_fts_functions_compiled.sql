-- The generated full-text columns (memory_entries.scope and .fts, wall_posts.fts; migrations 003, 007, 010) call
-- fts5_words and sqlite_hex. As LANGUAGE sql functions they cost each writing statement a parse of their bodies:
-- PostgreSQL builds a generated column's expression again for every statement, inlines fts5_words by parsing it,
-- and runs sqlite_hex (not inlinable: convert_to is only STABLE) through the SQL-function executor, which parses
-- and plans it again. That was about a quarter of PostgreSQL's CPU per memory write (perf, bench postgres).
-- PL/pgSQL functions are compiled once per connection. Same bodies and results, so the stored columns stay valid.
CREATE OR REPLACE FUNCTION fts5_words(s text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$ BEGIN RETURN regexp_replace(s, '[[:punct:][:space:][:cntrl:]]+', ' ', 'g'); END $$;

CREATE OR REPLACE FUNCTION sqlite_hex(s text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$ BEGIN RETURN upper(encode(convert_to(coalesce(s, ''), 'UTF8'), 'hex')); END $$;
