-- Signals to other gateway instances when a change log or an A2A task is written. SQLite has none to send: its
-- readers (several processes on one file) poll. The PostgreSQL migration of the same number adds the NOTIFY
-- triggers; this file keeps the two lists of migrations numbered alike.
SELECT 1;
