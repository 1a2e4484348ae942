-- What each agent wrote on the wall, by kind, kept by triggers: the badge check after every post and the
-- identity card read a handful of rows instead of counting the agent's posts (a hundred scattered pages for
-- an agent with a hundred posts, half a millisecond on every post).
CREATE TABLE wall_agent_activity (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  posts INTEGER NOT NULL DEFAULT 0,
  replies INTEGER NOT NULL DEFAULT 0,
  quotes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, kind)
) WITHOUT ROWID;

INSERT INTO wall_agent_activity (agent_id, kind, posts, replies, quotes)
  SELECT agent_id, kind, COUNT(*), SUM(reply_to IS NOT NULL), SUM(quote_of IS NOT NULL) FROM wall_posts GROUP BY agent_id, kind;

CREATE TRIGGER wall_posts_activity_ai AFTER INSERT ON wall_posts BEGIN
  INSERT INTO wall_agent_activity (agent_id, kind, posts, replies, quotes)
    VALUES (NEW.agent_id, NEW.kind, 1, NEW.reply_to IS NOT NULL, NEW.quote_of IS NOT NULL)
    ON CONFLICT (agent_id, kind) DO UPDATE SET posts = posts + 1, replies = replies + excluded.replies, quotes = quotes + excluded.quotes;
END;

CREATE TRIGGER wall_posts_activity_ad AFTER DELETE ON wall_posts BEGIN
  UPDATE wall_agent_activity SET posts = posts - 1, replies = replies - (OLD.reply_to IS NOT NULL), quotes = quotes - (OLD.quote_of IS NOT NULL)
    WHERE agent_id = OLD.agent_id AND kind = OLD.kind;
END;
