-- Durable memory. Entries of an agent (agent_id) or of the anonymous scratchpad (agent_id NULL).
-- Triggers keep history, full-text index, change feed and usage counters in step with every write, inside
-- the same statement, so a write is one round trip from the application.
CREATE TABLE memory_entries (
  id INTEGER PRIMARY KEY,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,           -- JSON
  text TEXT NOT NULL,            -- the value flattened to words, for full-text search and facts
  size INTEGER NOT NULL,         -- bytes of the JSON value
  visibility TEXT NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
  tags TEXT NOT NULL DEFAULT '[]',
  pinned INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER,
  written_by TEXT REFERENCES agents(id) ON DELETE SET NULL,
  client_key TEXT,               -- scratchpad writer (peppered hash of the address)
  facts_version INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX memory_entries_key ON memory_entries (ifnull(agent_id, ''), namespace, key);
CREATE INDEX memory_entries_recent ON memory_entries (agent_id, updated_at);
CREATE INDEX memory_entries_expiry ON memory_entries (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX memory_entries_facts_due ON memory_entries (id) WHERE facts_version < version;
CREATE INDEX memory_entries_written_by ON memory_entries (written_by);

CREATE TABLE memory_versions (
  entry_id INTEGER NOT NULL REFERENCES memory_entries(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  value TEXT NOT NULL,
  size INTEGER NOT NULL,
  written_at INTEGER NOT NULL,
  written_by TEXT REFERENCES agents(id) ON DELETE SET NULL,
  PRIMARY KEY (entry_id, version)
) WITHOUT ROWID;
CREATE INDEX memory_versions_written_by ON memory_versions (written_by);

CREATE TABLE memory_acl (
  owner_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  namespace TEXT NOT NULL,
  grantee_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  permission TEXT NOT NULL CHECK (permission IN ('read', 'write')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (owner_id, namespace, grantee_id)
) WITHOUT ROWID;
CREATE INDEX memory_acl_grantee ON memory_acl (grantee_id);

-- The change feed, compacted: one row per key (its latest change), so replaying it from the start
-- rebuilds exactly the current state. Deletions and expiries stay as tombstones.
CREATE TABLE memory_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('put', 'delete', 'expire', 'forget')),
  version INTEGER NOT NULL,
  value TEXT,
  visibility TEXT,
  tags TEXT,
  expires_at INTEGER,
  at INTEGER NOT NULL
);
CREATE UNIQUE INDEX memory_changes_key ON memory_changes (ifnull(agent_id, ''), namespace, key);
CREATE INDEX memory_changes_feed ON memory_changes (agent_id, seq);
CREATE INDEX memory_changes_ns_feed ON memory_changes (agent_id, namespace, seq);

CREATE TABLE memory_usage (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  entries INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE memory_facts (
  id INTEGER PRIMARY KEY,
  entry_id INTEGER NOT NULL REFERENCES memory_entries(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('entity', 'topic', 'path', 'tag')),
  -- entity/topic/tag name, or a JSON key path
  subject TEXT NOT NULL,
  -- entity type (person, place, organization…) or the value at a JSON path
  object TEXT NOT NULL DEFAULT '',
  norm TEXT NOT NULL,
  version INTEGER NOT NULL,
  superseded_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX memory_facts_entry ON memory_facts (entry_id, superseded_at);
CREATE INDEX memory_facts_norm ON memory_facts (norm) WHERE superseded_at IS NULL;

CREATE VIRTUAL TABLE memory_fts USING fts5(
  namespace, key, text, tags,
  content = 'memory_entries', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER memory_entries_ai AFTER INSERT ON memory_entries BEGIN
  INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by)
    VALUES (NEW.id, NEW.version, NEW.value, NEW.size, NEW.updated_at, NEW.written_by);
  INSERT INTO memory_fts (rowid, namespace, key, text, tags) VALUES (NEW.id, NEW.namespace, NEW.key, NEW.text, NEW.tags);
  DELETE FROM memory_changes WHERE ifnull(agent_id, '') = ifnull(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, value, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.value, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  INSERT INTO memory_usage (agent_id, entries, bytes) SELECT NEW.agent_id, 1, NEW.size WHERE NEW.agent_id IS NOT NULL
    ON CONFLICT (agent_id) DO UPDATE SET entries = entries + 1, bytes = bytes + excluded.bytes;
END;

CREATE TRIGGER memory_entries_au AFTER UPDATE OF version ON memory_entries BEGIN
  INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by)
    VALUES (NEW.id, NEW.version, NEW.value, NEW.size, NEW.updated_at, NEW.written_by);
  DELETE FROM memory_versions WHERE entry_id = NEW.id
    AND version <= NEW.version - (SELECT CAST(value AS INTEGER) FROM gateway_settings WHERE key = 'memory_versions_kept');
  INSERT INTO memory_fts (memory_fts, rowid, namespace, key, text, tags) VALUES ('delete', OLD.id, OLD.namespace, OLD.key, OLD.text, OLD.tags);
  INSERT INTO memory_fts (rowid, namespace, key, text, tags) VALUES (NEW.id, NEW.namespace, NEW.key, NEW.text, NEW.tags);
  DELETE FROM memory_changes WHERE ifnull(agent_id, '') = ifnull(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, value, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.value, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  UPDATE memory_usage SET bytes = bytes + NEW.size - OLD.size WHERE agent_id = NEW.agent_id;
END;

-- Deletions: the index and counters follow here; the application writes the tombstone (it knows why).
CREATE TRIGGER memory_entries_ad AFTER DELETE ON memory_entries BEGIN
  INSERT INTO memory_fts (memory_fts, rowid, namespace, key, text, tags) VALUES ('delete', OLD.id, OLD.namespace, OLD.key, OLD.text, OLD.tags);
  UPDATE memory_usage SET entries = entries - 1, bytes = bytes - OLD.size WHERE agent_id = OLD.agent_id;
END;

INSERT INTO gateway_settings (key, value) VALUES ('memory_versions_kept', '50') ON CONFLICT (key) DO NOTHING;

-- Vectors from an OpenAI-compatible embeddings endpoint, when one is configured (float32 little-endian).
CREATE TABLE memory_embeddings (
  entry_id INTEGER PRIMARY KEY REFERENCES memory_entries(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  model TEXT NOT NULL,
  vector BLOB NOT NULL
);
