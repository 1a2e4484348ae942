-- 2025-era Streamable HTTP sessions (Mcp-Session-Id) shared by every gateway instance on one database (issue 25),
-- so a session opened on one instance keeps working when its next request lands on another. Keyed by the
-- SHA-256 of the session id (a row read from the database cannot be presented as a session). What a session is
-- rebuilt from: its toolsets and the initialize request's params (JSON text, replayed as sent), the resources it
-- subscribed to (a JSON array) and its vault_login handle sealed under a key derived from the session id
-- (AES-256-GCM: nonce, ciphertext and tag in one blob). seen_at is refreshed at most every few seconds; a row
-- idle longer than the configured idle time, or closed (DELETE, or evicted by the session cap), is gone for
-- every instance. Such rows are pruned now and then. docs/decisions/mcp-sessions-shared.md.
CREATE TABLE mcp_sessions (
  id_hash TEXT PRIMARY KEY,
  toolsets TEXT NOT NULL,
  init TEXT NOT NULL,
  subscriptions TEXT NOT NULL DEFAULT '[]',
  login_sealed BLOB,
  created_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL,
  closed_at INTEGER
) WITHOUT ROWID;
CREATE INDEX mcp_sessions_seen ON mcp_sessions (seen_at);
