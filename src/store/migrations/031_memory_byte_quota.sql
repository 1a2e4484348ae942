-- The per-agent byte quota of memory (issue 26): the bytes of an agent's values (memory_usage.bytes, kept by the
-- triggers of 003) may not pass GATEWAY_MEMORY_MAX_BYTES, kept in the settings. Enforced by the database in the
-- write itself, as the entry limit (015): a new key that would pass it is refused, and so is an update that grows
-- a value past it; an update that shrinks a value always passes, so an agent over a lowered quota can shrink.
-- The error message is the one the application matches (tools/memory/entries.ts).
CREATE TRIGGER memory_entries_bytes_insert BEFORE INSERT ON memory_entries
WHEN NEW.agent_id IS NOT NULL
  AND ifnull((SELECT bytes FROM memory_usage WHERE agent_id = NEW.agent_id), 0) + NEW.size > (SELECT CAST(value AS INTEGER) FROM gateway_settings WHERE key = 'memory_max_bytes')
  AND NOT EXISTS (SELECT 1 FROM memory_entries WHERE ifnull(agent_id, '') = NEW.agent_id AND namespace = NEW.namespace AND key = NEW.key)
BEGIN
  SELECT RAISE(ABORT, 'memory_byte_limit');
END;

-- An upsert of an existing key is checked here (its INSERT trigger above lets it through), as is a compare-and-set.
CREATE TRIGGER memory_entries_bytes_update BEFORE UPDATE OF version ON memory_entries
WHEN NEW.agent_id IS NOT NULL AND NEW.size > OLD.size
  AND (SELECT bytes FROM memory_usage WHERE agent_id = NEW.agent_id) - OLD.size + NEW.size > (SELECT CAST(value AS INTEGER) FROM gateway_settings WHERE key = 'memory_max_bytes')
BEGIN
  SELECT RAISE(ABORT, 'memory_byte_limit');
END;

INSERT INTO gateway_settings (key, value) VALUES ('memory_max_bytes', '268435456') ON CONFLICT (key) DO NOTHING;
