-- PostgreSQL port of migrations/016_wall_agent_activity.sql. What each agent wrote on the wall, by kind, kept by
-- triggers: the badge check after every post and the identity card read a handful of rows instead of counting
-- the agent's posts.
CREATE TABLE wall_agent_activity (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  posts BIGINT NOT NULL DEFAULT 0,
  replies BIGINT NOT NULL DEFAULT 0,
  quotes BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, kind)
);

INSERT INTO wall_agent_activity (agent_id, kind, posts, replies, quotes)
  SELECT agent_id, kind, COUNT(*), SUM((reply_to IS NOT NULL)::int), SUM((quote_of IS NOT NULL)::int) FROM wall_posts GROUP BY agent_id, kind;

CREATE FUNCTION wall_posts_activity_ai() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_agent_activity (agent_id, kind, posts, replies, quotes)
    VALUES (NEW.agent_id, NEW.kind, 1, (NEW.reply_to IS NOT NULL)::int, (NEW.quote_of IS NOT NULL)::int)
    ON CONFLICT (agent_id, kind) DO UPDATE SET posts = wall_agent_activity.posts + 1,
      replies = wall_agent_activity.replies + excluded.replies, quotes = wall_agent_activity.quotes + excluded.quotes;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_posts_activity_ai AFTER INSERT ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_posts_activity_ai();

CREATE FUNCTION wall_posts_activity_ad() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wall_agent_activity SET posts = posts - 1, replies = replies - (OLD.reply_to IS NOT NULL)::int, quotes = quotes - (OLD.quote_of IS NOT NULL)::int
    WHERE agent_id = OLD.agent_id AND kind = OLD.kind;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_posts_activity_ad AFTER DELETE ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_posts_activity_ad();
