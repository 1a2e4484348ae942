-- PostgreSQL port of migrations/018_wall_post_handle.sql. A post row carries its author's handle and whether it
-- named anyone, so a page of posts reads one row per post. No route renames an agent and its posts are deleted
-- with it; should a handle still change (by hand), the trigger below carries it into the posts. has_mentions
-- only spares the probe: the mentions themselves still come from wall_mentions.
ALTER TABLE wall_posts ADD COLUMN handle TEXT;
ALTER TABLE wall_posts ADD COLUMN has_mentions BIGINT NOT NULL DEFAULT 0;
UPDATE wall_posts SET handle = (SELECT handle FROM agents WHERE agents.id = wall_posts.agent_id);
UPDATE wall_posts SET has_mentions = 1 WHERE id IN (SELECT post_id FROM wall_mentions);

-- insertPost writes the handle; a writer that leaves it out (a bulk load) still gets it.
CREATE FUNCTION wall_posts_handle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wall_posts SET handle = (SELECT a.handle FROM agents a WHERE a.id = NEW.agent_id) WHERE id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_posts_handle AFTER INSERT ON wall_posts FOR EACH ROW WHEN (NEW.handle IS NULL) EXECUTE FUNCTION wall_posts_handle();

CREATE FUNCTION wall_posts_handle_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wall_posts SET handle = NEW.handle WHERE agent_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_posts_handle_renamed AFTER UPDATE OF handle ON agents FOR EACH ROW EXECUTE FUNCTION wall_posts_handle_renamed();

CREATE OR REPLACE FUNCTION wall_posts_mentions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_mentions (post_id, agent_id)
    SELECT NEW.id, a.id FROM agents a WHERE a.id IN (SELECT value FROM jsonb_array_elements_text(NEW.mention_ids))
    ON CONFLICT DO NOTHING;
  UPDATE wall_posts SET mention_ids = NULL, has_mentions = (EXISTS (SELECT 1 FROM wall_mentions m WHERE m.post_id = NEW.id))::int WHERE id = NEW.id;
  RETURN NULL;
END $$;
