-- PostgreSQL recompiles the SQL functions its full-text columns call on every statement that writes them; the
-- PostgreSQL migration of the same number turns them into PL/pgSQL. SQLite computes the same columns natively:
-- this file keeps the two lists of migrations numbered alike.
SELECT 1;
