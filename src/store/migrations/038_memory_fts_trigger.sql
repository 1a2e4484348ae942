-- PostgreSQL's migration 038 keeps its memory full-text vector by a trigger instead of a generated column. SQLite's
-- FTS5 index is kept by the triggers it already has: this file keeps the two stores' numbering the same.
SELECT 1;
