-- PostgreSQL port of migrations/015_memory_entry_limit.sql. The per-agent entry limit, enforced by the database
-- in the write itself: a new live key beyond the limit is refused (an update of a live key, or a write by a
-- grantee into the owner's namespace, counts against the owner too). The limit is the configured
-- GATEWAY_MEMORY_MAX_ENTRIES, kept in the settings. The error message is the one the application matches
-- (tools/memory/entries.ts). A trigger's WHEN cannot hold a subquery in PostgreSQL: the test is in the body.
-- (memory_usage is kept by AFTER triggers, which PostgreSQL runs at the end of the statement: a single INSERT
-- of several entries is checked against the count before it; the application writes one entry a statement.)
-- SQLite has one writer, so a count it reads cannot change before its write commits. Here transactions write
-- side by side and each would read the count as it was before the others' uncommitted entries, so several could
-- take the last free place: the check holds a lock of the owner's (a transaction-level advisory lock keyed by
-- the agent, 'AGWL' and the hash of its id) until the write commits, and the count it reads after taking it
-- (a new snapshot: each statement of a PL/pgSQL function takes one) includes every write that held it before.
CREATE FUNCTION memory_entries_limit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agent_id IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(1095194444, hashtext(NEW.agent_id));
  END IF;
  IF NEW.agent_id IS NOT NULL
    AND (SELECT u.entries FROM memory_usage u WHERE u.agent_id = NEW.agent_id) >= (SELECT CAST(s.value AS BIGINT) FROM gateway_settings s WHERE s.key = 'memory_max_entries')
    AND NOT EXISTS (SELECT 1 FROM memory_entries e WHERE coalesce(e.agent_id, '') = NEW.agent_id AND e.namespace = NEW.namespace AND e.key = NEW.key
      AND (e.expires_at IS NULL OR e.expires_at > NEW.updated_at))
  THEN
    RAISE EXCEPTION 'memory_entry_limit';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER memory_entries_limit BEFORE INSERT ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_limit();

INSERT INTO gateway_settings (key, value) VALUES ('memory_max_entries', '100000') ON CONFLICT (key) DO NOTHING;
