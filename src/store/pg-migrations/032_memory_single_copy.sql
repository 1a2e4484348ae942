-- PostgreSQL port of migrations/032_memory_single_copy.sql: memory keeps each byte of a value about once
-- (issue 26, docs/decisions/storage.md).
--   * memory_entries.text goes. memory_words(value) gives the same words (object keys, strings, numbers and
--     booleans, the first 64 KiB; keys before values and in jsonb's order, which only snippets see); the generated
--     full-text column calls it, and so do the reads that want words (tools/memory/store/words.ts). A NUL
--     (\u0000, which jsonb cannot hold) is read as a space, as flattenText did.
--   * memory_versions holds past versions only; the current one is the entry itself (readers add it).
--   * memory_changes no longer copies a put's value: the feed reads it from the entry.
CREATE FUNCTION memory_words(v json) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  j jsonb := regexp_replace(v::text, '(?<!\\)((\\\\)*)\\u0000', '\1 ', 'g')::jsonb;
BEGIN
  RETURN left(coalesce((SELECT string_agg(w, ' ') FROM (
    SELECT kv->>'key' AS w FROM jsonb_path_query(j, 'strict $.** ? (@.type() == "object").keyvalue()') AS k(kv)
    UNION ALL
    SELECT CASE jsonb_typeof(s) WHEN 'string' THEN s #>> '{}' ELSE s::text END
      FROM jsonb_path_query(j, 'strict $.** ? (@.type() == "string" || @.type() == "number" || @.type() == "boolean")') AS s
  ) w), ''), 65536);
END $$;

ALTER TABLE memory_entries DROP COLUMN fts;
ALTER TABLE memory_entries DROP COLUMN text;
ALTER TABLE memory_entries ADD COLUMN fts tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', fts5_words(key)), 'A')
  || setweight(to_tsvector('simple', fts5_words(tags::text)), 'B')
  || setweight(to_tsvector('simple', fts5_words(namespace)), 'C')
  || setweight(to_tsvector('simple', fts5_words(memory_words(value))), 'C')
  || setweight(to_tsvector('simple',
       CASE WHEN agent_id IS NULL THEN 'pub' ELSE 'o' || sqlite_hex(agent_id) || ' n' || sqlite_hex(agent_id || '/' || namespace) || CASE WHEN visibility = 'public' THEN ' pub' ELSE '' END END
       || ' x' || sqlite_hex(namespace)), 'D')
) STORED;
CREATE INDEX memory_entries_fts ON memory_entries USING gin (fts);

DELETE FROM memory_versions v USING memory_entries e WHERE e.id = v.entry_id AND e.version = v.version;
UPDATE memory_changes SET value = NULL WHERE op = 'put' AND value IS NOT NULL;

CREATE OR REPLACE FUNCTION memory_entries_ai() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM memory_changes WHERE coalesce(agent_id, '') = coalesce(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  INSERT INTO memory_usage (agent_id, entries, bytes) SELECT NEW.agent_id, 1, NEW.size WHERE NEW.agent_id IS NOT NULL
    ON CONFLICT (agent_id) DO UPDATE SET entries = memory_usage.entries + 1, bytes = memory_usage.bytes + excluded.bytes;
  RETURN NULL;
END $$;

-- The replaced version joins the history; versions past the kept depth (counting the current one) go.
CREATE OR REPLACE FUNCTION memory_entries_au() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by)
    VALUES (OLD.id, OLD.version, OLD.value, OLD.size, OLD.updated_at, OLD.written_by)
    ON CONFLICT (entry_id, version) DO NOTHING;
  DELETE FROM memory_versions WHERE entry_id = NEW.id
    AND version <= NEW.version - (SELECT CAST(value AS BIGINT) FROM gateway_settings WHERE key = 'memory_versions_kept');
  DELETE FROM memory_changes WHERE coalesce(agent_id, '') = coalesce(NEW.agent_id, '') AND namespace = NEW.namespace AND key = NEW.key;
  INSERT INTO memory_changes (agent_id, namespace, key, op, version, visibility, tags, expires_at, at)
    VALUES (NEW.agent_id, NEW.namespace, NEW.key, 'put', NEW.version, NEW.visibility, NEW.tags, NEW.expires_at, NEW.updated_at);
  UPDATE memory_usage SET bytes = bytes + NEW.size - OLD.size WHERE agent_id = NEW.agent_id;
  RETURN NULL;
END $$;

-- SQLite reads a stored value through memory_value(), which inflates one it keeps deflated (src/store/value-codec.ts).
-- PostgreSQL compresses large values itself (TOAST): here it is the identity, so one query text serves both.
CREATE FUNCTION memory_value(v json) RETURNS json LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT v $$;
