-- Memory keeps each byte of a value about once (issue 26, docs/decisions/storage.md). Before this, a value was
-- stored four times and indexed once more: memory_entries.value, memory_entries.text (the value flattened to
-- words), memory_versions (the current version too), memory_changes.value (the feed's copy), and the FTS5 index.
--   * memory_entries.text goes: the words are computed from the value where they are needed (the index triggers
--     below, search snippets, facts, embeddings) by memory_words(), which every connection registers
--     (src/store/sqlite-connection.ts): flattenText's words, object keys, strings, numbers and booleans, first 64 KiB.
--   * memory_fts becomes contentless (content = '', contentless_delete = 1): it needs neither a copy of the words
--     nor the old words to delete a row. It keeps positions (detail = full): with detail = column, 40% smaller,
--     a contentless table gives every hit a BM25 score of 0, and an external-content one re-reads each hit to rank.
--   * memory_versions holds past versions only; the current one is the entry itself (readers add it).
--   * memory_changes no longer copies a put's value: the feed is compacted to each key's latest change, so a put
--     row always describes the entry's current version, and the feed reads the value from the entry.
DROP TRIGGER memory_entries_ai;
DROP TRIGGER memory_entries_au;
DROP TRIGGER memory_entries_ad;
DROP TABLE memory_fts;
ALTER TABLE memory_entries DROP COLUMN text;

CREATE VIRTUAL TABLE memory_fts USING fts5(
  namespace, key, text, tags, scope,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Key matches weigh most, then tags; scope tokens never contribute to the score.
INSERT INTO memory_fts (memory_fts, rank) VALUES ('rank', 'bm25(1.0, 4.0, 1.0, 2.0, 0.0)');

INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope)
  SELECT e.id, e.namespace, e.key,
    memory_words(e.value),
    e.tags, e.scope
  FROM memory_entries e;

DELETE FROM memory_versions WHERE EXISTS (SELECT 1 FROM memory_entries e WHERE e.id = memory_versions.entry_id AND e.version = memory_versions.version);
UPDATE memory_changes SET value = NULL WHERE op = 'put' AND value IS NOT NULL;

CREATE TRIGGER memory_entries_ai AFTER INSERT ON memory_entries BEGIN
  INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope)
    VALUES (NEW.id, NEW.namespace, NEW.key,
      memory_words(NEW.value),
      NEW.tags, NEW.scope);
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
  DELETE FROM memory_fts WHERE rowid = OLD.id
    AND (OLD.value IS NOT NEW.value OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope);
  INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope)
    SELECT NEW.id, NEW.namespace, NEW.key,
      memory_words(NEW.value),
      NEW.tags, NEW.scope
    WHERE OLD.value IS NOT NEW.value OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope;
  DELETE FROM memory_changes WHERE ifnull(agent_id, '') = ifnull(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  UPDATE memory_usage SET bytes = bytes + NEW.size - OLD.size WHERE agent_id = NEW.agent_id;
END;

CREATE TRIGGER memory_entries_ad AFTER DELETE ON memory_entries BEGIN
  DELETE FROM memory_fts WHERE rowid = OLD.id;
  UPDATE memory_usage SET entries = entries - 1, bytes = bytes - OLD.size WHERE agent_id = OLD.agent_id;
END;
