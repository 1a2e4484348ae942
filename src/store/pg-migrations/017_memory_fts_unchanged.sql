-- PostgreSQL port of migrations/017_memory_fts_unchanged.sql. In SQLite this makes a write that stores the same
-- text, tags and visibility again leave the FTS5 index alone (re-adding identical entries was most of such a
-- write's cost). Here the index is the generated column memory_entries.fts (migrations 003 and 007): the
-- trigger never touched it, and GIN does not rewrite a posting for an unchanged key. memory_entries_au keeps
-- 003's body; it is restated so this file says what the trigger does from here on.
CREATE OR REPLACE FUNCTION memory_entries_au() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by)
    VALUES (NEW.id, NEW.version, NEW.value, NEW.size, NEW.updated_at, NEW.written_by);
  DELETE FROM memory_versions WHERE entry_id = NEW.id
    AND version <= NEW.version - (SELECT CAST(value AS BIGINT) FROM gateway_settings WHERE key = 'memory_versions_kept');
  DELETE FROM memory_changes WHERE coalesce(agent_id, '') = coalesce(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, value, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.value, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  UPDATE memory_usage SET bytes = bytes + NEW.size - OLD.size WHERE agent_id = NEW.agent_id;
  RETURN NULL;
END $$;
