-- Public entries (the scratchpad's too) get a full-text index of their own (issue 26, docs/decisions/memory.md).
-- FTS5's bm25() weighs each phrase of a query by the number of documents holding it, which it counts by walking
-- the phrase's whole document list: with every entry in one index, each search walked the "pub" scope token's
-- list, all the public entries of every agent (50,000 at 1,000,000 entries, about 4 ms a search). Now a search
-- asks memory_fts for the words under the caller's own and shared scope tokens, and memory_fts_pub for the words
-- alone. An entry is in the one its scope says: "pub" when it has no owner or is public (migration 007).
CREATE VIRTUAL TABLE memory_fts_pub USING fts5(
  namespace, key, text, tags, scope,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO memory_fts_pub (memory_fts_pub, rank) VALUES ('rank', 'bm25(1.0, 4.0, 1.0, 2.0, 0.0)');

DELETE FROM memory_fts WHERE rowid IN (SELECT id FROM memory_entries WHERE agent_id IS NULL OR visibility = 'public');
INSERT INTO memory_fts_pub (rowid, namespace, key, text, tags, scope)
  SELECT id, namespace, key, memory_words(value), tags, scope FROM memory_entries WHERE agent_id IS NULL OR visibility = 'public';

DROP TRIGGER memory_entries_ai;
DROP TRIGGER memory_entries_au;
DROP TRIGGER memory_entries_ad;

CREATE TRIGGER memory_entries_ai AFTER INSERT ON memory_entries BEGIN
  INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope)
    SELECT NEW.id, NEW.namespace, NEW.key, memory_words(NEW.value), NEW.tags, NEW.scope WHERE NOT (NEW.agent_id IS NULL OR NEW.visibility = 'public');
  INSERT INTO memory_fts_pub (rowid, namespace, key, text, tags, scope)
    SELECT NEW.id, NEW.namespace, NEW.key, memory_words(NEW.value), NEW.tags, NEW.scope WHERE (NEW.agent_id IS NULL OR NEW.visibility = 'public');
  DELETE FROM memory_changes WHERE ifnull(agent_id, '') = ifnull(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  INSERT INTO memory_usage (agent_id, entries, bytes) SELECT NEW.agent_id, 1, NEW.size WHERE NEW.agent_id IS NOT NULL
    ON CONFLICT (agent_id) DO UPDATE SET entries = entries + 1, bytes = bytes + excluded.bytes;
END;

-- The replaced version joins the history; versions past the kept depth (counting the current one) go. A write that
-- stores the same value, tags and visibility again leaves the index alone (017).
CREATE TRIGGER memory_entries_au AFTER UPDATE OF version ON memory_entries BEGIN
  INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by)
    VALUES (OLD.id, OLD.version, OLD.value, OLD.size, OLD.updated_at, OLD.written_by)
    ON CONFLICT (entry_id, version) DO NOTHING;
  DELETE FROM memory_versions WHERE entry_id = NEW.id
    AND version <= NEW.version - (SELECT CAST(value AS INTEGER) FROM gateway_settings WHERE key = 'memory_versions_kept');
  DELETE FROM memory_fts WHERE rowid = OLD.id AND NOT (OLD.agent_id IS NULL OR OLD.visibility = 'public') AND (OLD.value IS NOT NEW.value OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope);
  DELETE FROM memory_fts_pub WHERE rowid = OLD.id AND (OLD.agent_id IS NULL OR OLD.visibility = 'public') AND (OLD.value IS NOT NEW.value OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope);
  INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope)
    SELECT NEW.id, NEW.namespace, NEW.key, memory_words(NEW.value), NEW.tags, NEW.scope WHERE NOT (NEW.agent_id IS NULL OR NEW.visibility = 'public') AND (OLD.value IS NOT NEW.value OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope);
  INSERT INTO memory_fts_pub (rowid, namespace, key, text, tags, scope)
    SELECT NEW.id, NEW.namespace, NEW.key, memory_words(NEW.value), NEW.tags, NEW.scope WHERE (NEW.agent_id IS NULL OR NEW.visibility = 'public') AND (OLD.value IS NOT NEW.value OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope);
  DELETE FROM memory_changes WHERE ifnull(agent_id, '') = ifnull(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  UPDATE memory_usage SET bytes = bytes + NEW.size - OLD.size WHERE agent_id = NEW.agent_id;
END;

CREATE TRIGGER memory_entries_ad AFTER DELETE ON memory_entries BEGIN
  DELETE FROM memory_fts WHERE rowid = OLD.id AND NOT (OLD.agent_id IS NULL OR OLD.visibility = 'public');
  DELETE FROM memory_fts_pub WHERE rowid = OLD.id AND (OLD.agent_id IS NULL OR OLD.visibility = 'public');
  UPDATE memory_usage SET entries = entries - 1, bytes = bytes - OLD.size WHERE agent_id = OLD.agent_id;
END;
