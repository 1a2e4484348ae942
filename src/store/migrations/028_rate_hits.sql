-- Hits of the short per-client rate windows (wall posts, mail, scratchpad writes) shared by gateway instances on
-- one PostgreSQL database (src/shared-rate-window.ts). The key is a hash of the window's name and the client's
-- handle or address, never the handle itself. SQLite counts these windows in the process (one machine), so its
-- table stays empty; it is created for the two schemas to stay alike.
CREATE TABLE rate_hits (
  key TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX rate_hits_key ON rate_hits (key, at);
CREATE INDEX rate_hits_at ON rate_hits (at);
