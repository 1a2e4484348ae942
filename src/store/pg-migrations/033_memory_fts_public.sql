-- SQLite's migration 033 gives public memory entries a full-text index of their own, so that FTS5's BM25 no
-- longer counts every public entry for each search. PostgreSQL keeps its tsvector column and GIN index on
-- memory_entries (029), whose ranking (ts_rank) counts nothing across rows: nothing to change here.
SELECT 1;
