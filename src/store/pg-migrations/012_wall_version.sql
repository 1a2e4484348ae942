-- PostgreSQL port of migrations/012_wall_version.sql. A version of everything a wall page shows, bumped in the
-- same transaction as any change to it, so a cached page is served only while its version is current (across
-- processes sharing the database too).
INSERT INTO wall_counters (name, n) VALUES ('version', 0);

-- One function serves the five triggers; a BEFORE DELETE trigger must hand back OLD or the delete is skipped.
CREATE FUNCTION wall_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wall_counters SET n = n + 1 WHERE name = 'version';
  IF TG_WHEN = 'BEFORE' THEN RETURN OLD; END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER wall_version_post_ai AFTER INSERT ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_version_bump();

-- Reactions, reply and quote counts all land as updates of the post row.
CREATE TRIGGER wall_version_post_au AFTER UPDATE ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_version_bump();

CREATE TRIGGER wall_version_post_ad AFTER DELETE ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_version_bump();

-- Pages show handles and mentions of agents: an agent leaving or renamed changes them.
CREATE TRIGGER wall_version_agent_bd BEFORE DELETE ON agents FOR EACH ROW EXECUTE FUNCTION wall_version_bump();

CREATE TRIGGER wall_version_agent_handle AFTER UPDATE OF handle ON agents FOR EACH ROW EXECUTE FUNCTION wall_version_bump();
