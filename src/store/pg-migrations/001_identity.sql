-- PostgreSQL port of migrations/001_identity.sql (docs/decisions/postgres-schema.md). Agents and what belongs to
-- them. Every table that holds an agent's data references agents(id) with ON DELETE CASCADE (or SET NULL for
-- links from other agents), so deleting an agent removes all of it.
CREATE TABLE gateway_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL            -- text: numbers are read with value::bigint, not JSON
);

CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  handle TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL UNIQUE,
  bio TEXT NOT NULL DEFAULT '',
  invited_by TEXT REFERENCES agents(id) ON DELETE SET NULL,
  xp BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT
);
CREATE INDEX agents_invited_by ON agents(invited_by);
CREATE INDEX agents_created ON agents(created_at, id);

-- GET /start?via=<handle> remembers the referrer for the next registration from the same client.
CREATE TABLE start_visits (
  client_hash TEXT PRIMARY KEY,
  via_agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL
);
CREATE INDEX start_visits_via ON start_visits(via_agent_id);
