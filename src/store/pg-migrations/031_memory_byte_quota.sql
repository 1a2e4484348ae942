-- PostgreSQL port of migrations/031_memory_byte_quota.sql: the per-agent byte quota of memory. As the entry limit
-- (015), each check first takes the owner's advisory lock ('AGWL' and the hash of its id, held to commit), so the
-- usage it reads includes every write that held it before and two writes cannot both take the last bytes.
CREATE FUNCTION memory_entries_bytes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agent_id IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(1095194444, hashtext(NEW.agent_id));
    IF coalesce((SELECT u.bytes FROM memory_usage u WHERE u.agent_id = NEW.agent_id), 0) + NEW.size > (SELECT CAST(s.value AS BIGINT) FROM gateway_settings s WHERE s.key = 'memory_max_bytes')
      AND NOT EXISTS (SELECT 1 FROM memory_entries e WHERE coalesce(e.agent_id, '') = NEW.agent_id AND e.namespace = NEW.namespace AND e.key = NEW.key)
    THEN
      RAISE EXCEPTION 'memory_byte_limit';
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER memory_entries_bytes_insert BEFORE INSERT ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_bytes_insert();

CREATE FUNCTION memory_entries_bytes_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agent_id IS NOT NULL AND NEW.size > OLD.size THEN
    PERFORM pg_advisory_xact_lock(1095194444, hashtext(NEW.agent_id));
    IF (SELECT u.bytes FROM memory_usage u WHERE u.agent_id = NEW.agent_id) - OLD.size + NEW.size > (SELECT CAST(s.value AS BIGINT) FROM gateway_settings s WHERE s.key = 'memory_max_bytes') THEN
      RAISE EXCEPTION 'memory_byte_limit';
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER memory_entries_bytes_update BEFORE UPDATE OF version ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_bytes_update();

INSERT INTO gateway_settings (key, value) VALUES ('memory_max_bytes', '268435456') ON CONFLICT (key) DO NOTHING;
