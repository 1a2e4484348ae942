-- A post and its mentions are written by one INSERT (so it can share a group commit instead of needing a
-- transaction of its own): the mentioned agents' ids ride along in `mention_ids`, the trigger records the
-- mentions of agents that still exist, then clears the column so no agent id stays behind in the post row.
ALTER TABLE wall_posts ADD COLUMN mention_ids TEXT;

CREATE TRIGGER wall_posts_mentions AFTER INSERT ON wall_posts WHEN NEW.mention_ids IS NOT NULL BEGIN
  INSERT OR IGNORE INTO wall_mentions (post_id, agent_id)
    SELECT NEW.id, id FROM agents WHERE id IN (SELECT value FROM json_each(NEW.mention_ids));
  UPDATE wall_posts SET mention_ids = NULL WHERE id = NEW.id;
END;
