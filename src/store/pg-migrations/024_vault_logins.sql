-- PostgreSQL port of migrations/024_vault_logins.sql. vault_login handles (issue 22): short-lived, revocable,
-- server-minted stand-ins for an agent secret. Only the SHA-256 of a handle is kept; the agent's vault key is
-- kept sealed under a key derived from the handle (AES-256-GCM). Expired and revoked rows go when the next
-- handle is minted.
CREATE TABLE vault_logins (
  id_hash TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT,
  key_nonce BYTEA NOT NULL,
  sealed_key BYTEA NOT NULL
);
CREATE INDEX vault_logins_agent ON vault_logins (agent_id);
CREATE INDEX vault_logins_expiry ON vault_logins (expires_at);
