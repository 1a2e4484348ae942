-- PostgreSQL port of migrations/026_mcp_sessions.sql. 2025-era Streamable HTTP sessions shared by every gateway
-- instance (issue 25), keyed by the SHA-256 of the session id. toolsets, init and subscriptions are JSON text
-- the gateway only stores and reads back whole (TEXT, not JSON). The vault_login handle is sealed under a key
-- derived from the session id. docs/decisions/mcp-sessions-shared.md.
CREATE TABLE mcp_sessions (
  id_hash TEXT PRIMARY KEY,
  toolsets TEXT NOT NULL,
  init TEXT NOT NULL,
  subscriptions TEXT NOT NULL DEFAULT '[]',
  login_sealed BYTEA,
  created_at BIGINT NOT NULL,
  seen_at BIGINT NOT NULL,
  closed_at BIGINT
);
CREATE INDEX mcp_sessions_seen ON mcp_sessions (seen_at);
