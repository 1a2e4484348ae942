-- Search visibility inside the full-text index: each entry carries scope tokens (its owner, "pub" when
-- public or in the scratchpad, its owner+namespace for shares, its namespace), so a search asks FTS5 for
-- "visible to me AND matches" and ranks only those, in C, with ORDER BY rank LIMIT. Before this, every hit
-- of a common word was joined and filtered row by row.
ALTER TABLE memory_entries ADD COLUMN scope TEXT GENERATED ALWAYS AS (
  CASE WHEN agent_id IS NULL THEN 'pub' ELSE 'o' || hex(agent_id) || ' n' || hex(agent_id || '/' || namespace) || CASE WHEN visibility = 'public' THEN ' pub' ELSE '' END END
  || ' x' || hex(namespace)
) VIRTUAL;

DROP TRIGGER memory_entries_ai;
DROP TRIGGER memory_entries_au;
DROP TRIGGER memory_entries_ad;
DROP TABLE memory_fts;

CREATE VIRTUAL TABLE memory_fts USING fts5(
  namespace, key, text, tags, scope,
  content = 'memory_entries', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Key matches weigh most, then tags; scope tokens never contribute to the score.
INSERT INTO memory_fts (memory_fts, rank) VALUES ('rank', 'bm25(1.0, 4.0, 1.0, 2.0, 0.0)');

CREATE TRIGGER memory_entries_ai AFTER INSERT ON memory_entries BEGIN
  INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by)
    VALUES (NEW.id, NEW.version, NEW.value, NEW.size, NEW.updated_at, NEW.written_by);
  INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope) VALUES (NEW.id, NEW.namespace, NEW.key, NEW.text, NEW.tags, NEW.scope);
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
  INSERT INTO memory_fts (memory_fts, rowid, namespace, key, text, tags, scope) VALUES ('delete', OLD.id, OLD.namespace, OLD.key, OLD.text, OLD.tags, OLD.scope);
  INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope) VALUES (NEW.id, NEW.namespace, NEW.key, NEW.text, NEW.tags, NEW.scope);
  DELETE FROM memory_changes WHERE ifnull(agent_id, '') = ifnull(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, value, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.value, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  UPDATE memory_usage SET bytes = bytes + NEW.size - OLD.size WHERE agent_id = NEW.agent_id;
END;

CREATE TRIGGER memory_entries_ad AFTER DELETE ON memory_entries BEGIN
  INSERT INTO memory_fts (memory_fts, rowid, namespace, key, text, tags, scope) VALUES ('delete', OLD.id, OLD.namespace, OLD.key, OLD.text, OLD.tags, OLD.scope);
  UPDATE memory_usage SET entries = entries - 1, bytes = bytes - OLD.size WHERE agent_id = OLD.agent_id;
END;

INSERT INTO memory_fts (memory_fts) VALUES ('rebuild');
