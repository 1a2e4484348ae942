-- A write that stores the same text, tags and visibility again (an agent saving unchanged state, the same
-- note written twice) leaves the full-text index alone: deleting and re-adding identical index entries was
-- most of such a write's cost, and the churn it left in the index (deleted entries waiting for a merge in
-- every segment) made searches over the writer's entries twice as slow.
DROP TRIGGER memory_entries_au;
CREATE TRIGGER memory_entries_au AFTER UPDATE OF version ON memory_entries BEGIN
  INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by)
    VALUES (NEW.id, NEW.version, NEW.value, NEW.size, NEW.updated_at, NEW.written_by);
  DELETE FROM memory_versions WHERE entry_id = NEW.id
    AND version <= NEW.version - (SELECT CAST(value AS INTEGER) FROM gateway_settings WHERE key = 'memory_versions_kept');
  INSERT INTO memory_fts (memory_fts, rowid, namespace, key, text, tags, scope)
    SELECT 'delete', OLD.id, OLD.namespace, OLD.key, OLD.text, OLD.tags, OLD.scope
    WHERE OLD.text IS NOT NEW.text OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope;
  INSERT INTO memory_fts (rowid, namespace, key, text, tags, scope)
    SELECT NEW.id, NEW.namespace, NEW.key, NEW.text, NEW.tags, NEW.scope
    WHERE OLD.text IS NOT NEW.text OR OLD.tags IS NOT NEW.tags OR OLD.scope IS NOT NEW.scope;
  DELETE FROM memory_changes WHERE ifnull(agent_id, '') = ifnull(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, value, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.value, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  UPDATE memory_usage SET bytes = bytes + NEW.size - OLD.size WHERE agent_id = NEW.agent_id;
END;
