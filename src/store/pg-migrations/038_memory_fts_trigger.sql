-- memory_entries.fts is kept by a BEFORE trigger instead of being a generated column (docs/decisions/postgres.md,
-- "The full-text vector kept by a trigger"). PostgreSQL rebuilds a stored generated column's expression from the
-- catalog for every statement that writes the table (read back and planned again: 8-10% of its CPU under memory
-- PUTs); a PL/pgSQL trigger plans its expression once per connection. The vector is migration 032's expression, of
-- the same columns, and a write that changes none of them leaves it as it is. DROP EXPRESSION keeps every row's
-- vector and rewrites nothing. memory_fts_vector() is that expression on its own, for the trigger and for
-- `migrate-store`, which copies rows with the triggers off and then fills the vector (src/store/copy-store.ts).
-- Measured: 188 -> 173 us an insert in a PL/pgSQL loop; under the PUT bench (one instance, alternating runs)
-- PostgreSQL's CPU 298 -> 278 us a PUT, 4,115 -> 4,308 PUTs a second.
ALTER TABLE memory_entries ALTER COLUMN fts DROP EXPRESSION;

CREATE FUNCTION memory_fts_vector(k text, t jsonb, ns text, v json, a text, vis text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple', fts5_words(k)), 'A')
    || setweight(to_tsvector('simple', fts5_words(t::text)), 'B')
    || setweight(to_tsvector('simple', fts5_words(ns)), 'C')
    || setweight(to_tsvector('simple', fts5_words(memory_words(v))), 'C')
    || setweight(to_tsvector('simple',
         CASE WHEN a IS NULL THEN 'pub' ELSE 'o' || sqlite_hex(a) || ' n' || sqlite_hex(a || '/' || ns) || CASE WHEN vis = 'public' THEN ' pub' ELSE '' END END
         || ' x' || sqlite_hex(ns)), 'D')
$$;

CREATE FUNCTION memory_entries_fts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.fts := memory_fts_vector(NEW.key, NEW.tags, NEW.namespace, NEW.value, NEW.agent_id, NEW.visibility);
  RETURN NEW;
END $$;

-- The only BEFORE trigger on the table (the quota checks run after the write since 035), so nothing changes these
-- columns after it.
CREATE TRIGGER memory_entries_fts BEFORE INSERT OR UPDATE OF key, tags, namespace, value, agent_id, visibility
  ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_fts();
