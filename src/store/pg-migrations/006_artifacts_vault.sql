-- PostgreSQL port of migrations/006_artifacts_vault.sql. Hosted artifacts (metadata; the bytes live in the
-- content-addressed blob store) and the encrypted vault.
CREATE TABLE blobs (
  sha256 TEXT PRIMARY KEY,
  bytes BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE artifacts (
  id TEXT PRIMARY KEY,                 -- the unguessable capability token in the URL
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,                -- blob key; expired rows keep it after the bytes are swept
  bytes BIGINT NOT NULL,
  content_type TEXT NOT NULL,
  filename TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT 'upload', -- upload, job, watch…
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  client_key TEXT
);
CREATE INDEX artifacts_owner ON artifacts (agent_id, created_at);
CREATE INDEX artifacts_expiry ON artifacts (expires_at);
CREATE INDEX artifacts_blob ON artifacts (sha256);

-- A random salt per agent for the vault key (HKDF of the agent secret); the server alone cannot decrypt.
CREATE TABLE vault_keys (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  salt BYTEA NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE vault_entries (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  metadata JSON NOT NULL DEFAULT '{}',
  nonce BYTEA NOT NULL,
  ciphertext BYTEA NOT NULL,            -- AES-256-GCM ciphertext followed by its 16-byte tag
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (agent_id, name)
);
