-- Which gateway instances listen for which signal (PostgreSQL's LISTEN/NOTIFY, src/store/pg-listener.ts), so a
-- write sends a NOTIFY only while someone listens (pg-migrations/034_signal_listeners.sql, docs/decisions/postgres.md).
-- SQLite has no signals and leaves the table empty: it is here so both stores keep one schema (the schema tests
-- and migrate-store compare and copy them table by table).
CREATE TABLE signal_listeners (
  channel TEXT NOT NULL,
  listener TEXT NOT NULL,
  -- Milliseconds since the epoch, on the database's clock; the listener renews it while it listens.
  until INTEGER NOT NULL,
  PRIMARY KEY (channel, listener)
);
