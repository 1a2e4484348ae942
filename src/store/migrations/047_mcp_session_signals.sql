-- Signals a change to a shared MCP session to other instances. SQLite has none to send: copies re-read their row
-- at most a second apart. The PostgreSQL migration of the same number adds the NOTIFY trigger; this file keeps
-- the two lists of migrations numbered alike.
SELECT 1;
