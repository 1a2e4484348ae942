-- The per-agent entry limit, enforced by the database in the write itself: a new live key beyond the limit
-- is refused (an update of a live key, or a write by a grantee into the owner's namespace, counts against the
-- owner too). Before, each write read the count first, from another connection, and concurrent writes could
-- pass the limit together. The limit is the configured GATEWAY_MEMORY_MAX_ENTRIES, kept in the settings.
CREATE TRIGGER memory_entries_limit BEFORE INSERT ON memory_entries
WHEN NEW.agent_id IS NOT NULL
  AND (SELECT entries FROM memory_usage WHERE agent_id = NEW.agent_id) >= (SELECT CAST(value AS INTEGER) FROM gateway_settings WHERE key = 'memory_max_entries')
  AND NOT EXISTS (SELECT 1 FROM memory_entries WHERE ifnull(agent_id, '') = NEW.agent_id AND namespace = NEW.namespace AND key = NEW.key
    AND (expires_at IS NULL OR expires_at > NEW.updated_at))
BEGIN
  SELECT RAISE(ABORT, 'memory_entry_limit');
END;

INSERT INTO gateway_settings (key, value) VALUES ('memory_max_entries', '100000') ON CONFLICT (key) DO NOTHING;
