-- vault_login handles (issue 22): short-lived, revocable, server-minted stand-ins for an agent secret, for MCP
-- hosts that can send neither a header nor do OAuth. Only the SHA-256 of a handle is kept, so a handle read
-- from the database cannot be presented. The agent's vault key is kept sealed under a key derived from the handle
-- (AES-256-GCM), so the vault tools can open the vault for the handle's holder while the secret itself is never
-- stored and the database alone opens nothing. Expired and revoked rows go when the next handle is minted.
CREATE TABLE vault_logins (
  id_hash TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER,
  key_nonce BLOB NOT NULL,
  sealed_key BLOB NOT NULL
) WITHOUT ROWID;
CREATE INDEX vault_logins_agent ON vault_logins (agent_id);
CREATE INDEX vault_logins_expiry ON vault_logins (expires_at);
