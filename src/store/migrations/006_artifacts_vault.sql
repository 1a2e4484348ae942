-- Hosted artifacts (metadata; the bytes live in the content-addressed blob store) and the encrypted vault.
CREATE TABLE blobs (
  sha256 TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE artifacts (
  id TEXT PRIMARY KEY,                 -- the unguessable capability token in the URL
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,                -- blob key; expired rows keep it after the bytes are swept
  bytes INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  filename TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT 'upload', -- upload, job, watch…
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  client_key TEXT
);
CREATE INDEX artifacts_owner ON artifacts (agent_id, created_at);
CREATE INDEX artifacts_expiry ON artifacts (expires_at);
CREATE INDEX artifacts_blob ON artifacts (sha256);

-- A random salt per agent for the vault key (HKDF of the agent secret); the server alone cannot decrypt.
CREATE TABLE vault_keys (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  salt BLOB NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE vault_entries (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  nonce BLOB NOT NULL,
  ciphertext BLOB NOT NULL,             -- AES-256-GCM ciphertext followed by its 16-byte tag
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, name)
) WITHOUT ROWID;
