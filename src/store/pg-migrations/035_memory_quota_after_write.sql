-- The memory quotas of 015 and 031 checked after the write instead of before it (issue 25,
-- docs/decisions/postgres.md). Before, each check took the owner's advisory lock in a BEFORE trigger and held it to
-- commit, so an owner's writes queued for the whole of each other's INSERT: the full-text vector, the heap and
-- index inserts, the change feed. With two instances, that wait was a third of a memory PUT's time in PostgreSQL.
-- Now the checks are AFTER triggers that fire after memory_entries_ai / _au (PostgreSQL fires a row's triggers of
-- one kind in name order): those triggers have just added the write to the owner's memory_usage row, whose row lock
-- they hold to commit, so each check reads totals that include every write committed before it, and two writes
-- cannot both take the last place. A write past a quota raises the same message as before and rolls back whole.
-- Same outcomes as SQLite's BEFORE triggers for the gateway's statements (an upsert onto an expired key is checked
-- by the UPDATE branch: the key comes back to life); no advisory lock.
DROP TRIGGER memory_entries_limit ON memory_entries;
DROP TRIGGER memory_entries_bytes_insert ON memory_entries;
DROP TRIGGER memory_entries_bytes_update ON memory_entries;

-- A new live key past the entry limit: an inserted key (now counted), or an expired one written again (its row is
-- reused, so counted already: refused when the count is at the limit, as a new key would be).
CREATE OR REPLACE FUNCTION memory_entries_limit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agent_id IS NOT NULL AND (TG_OP = 'INSERT' OR (OLD.expires_at IS NOT NULL AND OLD.expires_at <= NEW.updated_at))
    AND (SELECT u.entries FROM memory_usage u WHERE u.agent_id = NEW.agent_id) + (TG_OP = 'UPDATE')::int
      > (SELECT CAST(s.value AS BIGINT) FROM gateway_settings s WHERE s.key = 'memory_max_entries')
  THEN
    RAISE EXCEPTION 'memory_entry_limit';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER memory_entries_limit AFTER INSERT OR UPDATE OF version ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_limit();

-- The byte quota: a new key, or a value grown (a shrinking one always passes, so an agent over a lowered quota can
-- make room). One function for both triggers, in place of 031's two.
DROP FUNCTION memory_entries_bytes_insert();
DROP FUNCTION memory_entries_bytes_update();
CREATE FUNCTION memory_entries_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agent_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.size > OLD.size)
    AND (SELECT u.bytes FROM memory_usage u WHERE u.agent_id = NEW.agent_id) > (SELECT CAST(s.value AS BIGINT) FROM gateway_settings s WHERE s.key = 'memory_max_bytes')
  THEN
    RAISE EXCEPTION 'memory_byte_limit';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER memory_entries_bytes_insert AFTER INSERT ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_bytes();
CREATE TRIGGER memory_entries_bytes_update AFTER UPDATE OF version ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_bytes();
