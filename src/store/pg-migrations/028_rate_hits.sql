-- PostgreSQL port of migrations/028_rate_hits.sql: hits of the short per-client rate windows, shared by the
-- instances on this database (src/shared-rate-window.ts). The key is a hash, never a handle or an address.
CREATE TABLE rate_hits (
  key TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX rate_hits_key ON rate_hits (key, at);
CREATE INDEX rate_hits_at ON rate_hits (at);
