-- PostgreSQL port of migrations/013_wall_mentions_on_insert.sql. A post and its mentions are written by one
-- INSERT (so it can share a group commit instead of needing a transaction of its own): the mentioned agents'
-- ids ride along in `mention_ids` (a JSON array), the trigger records the mentions of agents that still exist,
-- then clears the column so no agent id stays behind in the post row. INSERT OR IGNORE is ON CONFLICT DO NOTHING.
ALTER TABLE wall_posts ADD COLUMN mention_ids JSONB;

CREATE FUNCTION wall_posts_mentions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_mentions (post_id, agent_id)
    SELECT NEW.id, a.id FROM agents a WHERE a.id IN (SELECT value FROM jsonb_array_elements_text(NEW.mention_ids))
    ON CONFLICT DO NOTHING;
  UPDATE wall_posts SET mention_ids = NULL WHERE id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_posts_mentions AFTER INSERT ON wall_posts FOR EACH ROW WHEN (NEW.mention_ids IS NOT NULL)
  EXECUTE FUNCTION wall_posts_mentions();
