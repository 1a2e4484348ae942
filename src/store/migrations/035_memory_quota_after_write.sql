-- PostgreSQL's migration 035 moves its memory quota checks after the write, so an owner's writes no longer hold a
-- lock across each other's whole INSERT. SQLite has one writer: its BEFORE triggers (015, 031) stay as they are,
-- and this file keeps the two stores' numbering the same.
SELECT 1;
