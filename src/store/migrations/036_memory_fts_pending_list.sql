-- PostgreSQL's migration 036 bounds its memory full-text index's pending list (a GIN setting). SQLite's FTS5 index
-- has no such list: this file keeps the two stores' numbering the same.
SELECT 1;
