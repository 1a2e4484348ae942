-- Memory's words are stemmed with the Porter algorithm, as SQLite's FTS5 porter tokenizer does (issue 40): relevance
-- search ranks in the gateway from the entries that hold each query term, so both stores must agree on which do
-- ("painted" and "painting" both hold "paint"). Snowball's `porter` stemmer is that algorithm. Before this the index
-- held words as written (the 'simple' configuration), so "running" did not find "run" on PostgreSQL.
-- FTS5 leaves words of one or two bytes as they are, and Snowball would not ("us" → "u", while "used" → "us"), so
-- those go through 'gateway_plain'. The scope tokens stay 'simple' (hex, never stemmed). A query asks for the scope
-- with to_tsquery('simple', …) and for each word as its index holds it. Every row's vector is rebuilt once, here.
-- Diacritics are removed first (unaccent, a trusted contrib extension: "café" is "cafe"), as FTS5's
-- remove_diacritics does; so 'gateway_plain' is 'simple' with that.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE TEXT SEARCH DICTIONARY gateway_porter (TEMPLATE = snowball, LANGUAGE = porter);
CREATE TEXT SEARCH CONFIGURATION gateway_porter (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION gateway_porter
  ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH unaccent, gateway_porter;
CREATE TEXT SEARCH CONFIGURATION gateway_plain (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION gateway_plain
  ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH unaccent, simple;

-- The words of a text as FTS5's porter tokenizer indexes them (fts5_words splits on punctuation as unicode61 does).
CREATE FUNCTION memory_fts_words(s text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('gateway_porter', regexp_replace(w, '\m\w{1,2}\M', ' ', 'g')) || to_tsvector('gateway_plain', regexp_replace(w, '\m\w{3,}\M', ' ', 'g'))
  FROM (SELECT fts5_words(s) AS w) AS words
$$;

CREATE OR REPLACE FUNCTION memory_fts_vector(k text, t jsonb, ns text, v json, a text, vis text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(memory_fts_words(k), 'A')
    || setweight(memory_fts_words(t::text), 'B')
    || setweight(memory_fts_words(ns), 'C')
    || setweight(memory_fts_words(memory_words(v)), 'C')
    || setweight(to_tsvector('simple',
         CASE WHEN a IS NULL THEN 'pub' ELSE 'o' || sqlite_hex(a) || ' n' || sqlite_hex(a || '/' || ns) || CASE WHEN vis = 'public' THEN ' pub' ELSE '' END END
         || ' x' || sqlite_hex(ns)), 'D')
$$;

UPDATE memory_entries SET fts = memory_fts_vector(key, tags, namespace, value, agent_id, visibility);
