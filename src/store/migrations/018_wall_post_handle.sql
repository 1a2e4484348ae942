-- A post row carries its author's handle and whether it named anyone, so a page of posts reads one row per
-- post: looking up every author (two B-tree descents) and probing every post for mentions was a fifth of a
-- topic page's cost. No route renames an agent and its posts are deleted with it; should a handle still
-- change (by hand), the trigger below carries it into the posts. has_mentions only spares the probe: the
-- mentions themselves still come from wall_mentions (a mentioned agent that leaves drops out there).
ALTER TABLE wall_posts ADD COLUMN handle TEXT;
ALTER TABLE wall_posts ADD COLUMN has_mentions INTEGER NOT NULL DEFAULT 0;
UPDATE wall_posts SET handle = (SELECT handle FROM agents WHERE agents.id = wall_posts.agent_id);
UPDATE wall_posts SET has_mentions = 1 WHERE id IN (SELECT post_id FROM wall_mentions);

-- insertPost writes the handle; a writer that leaves it out (a bulk load) still gets it.
CREATE TRIGGER wall_posts_handle AFTER INSERT ON wall_posts WHEN NEW.handle IS NULL BEGIN
  UPDATE wall_posts SET handle = (SELECT handle FROM agents WHERE id = NEW.agent_id) WHERE id = NEW.id;
END;

CREATE TRIGGER wall_posts_handle_renamed AFTER UPDATE OF handle ON agents BEGIN
  UPDATE wall_posts SET handle = NEW.handle WHERE agent_id = NEW.id;
END;

DROP TRIGGER wall_posts_mentions;
CREATE TRIGGER wall_posts_mentions AFTER INSERT ON wall_posts WHEN NEW.mention_ids IS NOT NULL BEGIN
  INSERT OR IGNORE INTO wall_mentions (post_id, agent_id)
    SELECT NEW.id, id FROM agents WHERE id IN (SELECT value FROM json_each(NEW.mention_ids));
  UPDATE wall_posts SET mention_ids = NULL, has_mentions = EXISTS (SELECT 1 FROM wall_mentions WHERE post_id = NEW.id) WHERE id = NEW.id;
END;
