-- The first page of every topic (GET /wall?topic=X, limit 50), kept built: a topic read is then one row,
-- read on the event loop, instead of fifty posts built on the reader thread (docs/decisions/social.md).
-- A page is current while its topic has no row in wall_topic_stale: every change a page could show marks the
-- topic stale in the same transaction, and the page builder (tools/wall/topic-pages.ts) builds stale topics
-- again in the background, replacing their pages. (Deleting the page as well, freeing its overflow pages in
-- every index batch, cost posting a fifth of its rate.) Pages hold absolute post URLs, so each row says which
-- base URL it was built for.
CREATE TABLE wall_topic_pages (
  topic TEXT PRIMARY KEY,
  base TEXT NOT NULL,
  count INTEGER NOT NULL,
  newest INTEGER,
  oldest INTEGER,
  more INTEGER NOT NULL,
  json BLOB NOT NULL                     -- last, so the small columns a change checks sit before the overflow
);

-- gen: a fresh number at every mark. The builder reads it with the page it builds, in one snapshot, and
-- stores the page only if the topic still carries that number, so a change made while it was building wins.
CREATE TABLE wall_topic_stale (
  topic TEXT PRIMARY KEY,
  gen INTEGER NOT NULL
);
CREATE INDEX wall_topic_stale_gen ON wall_topic_stale (gen);
INSERT INTO wall_counters (name, n) VALUES ('topic_page_gen', 0);

-- Every topic /topics still counts gets its page (the hourly prune drops the pages of the others).
INSERT INTO wall_topic_stale (topic, gen) SELECT topic, 0 FROM wall_topics;

-- A change to topic `topic`: to the membership of its posts (post_id NULL), or to post `post_id` carrying it,
-- which matters only if that post is on the page (oldest <= post_id). A topic already stale is marked
-- again, so a build in flight for it is not stored. Every topic with a page or a stale mark has posts indexed.
CREATE VIEW wall_topic_changes (topic, post_id) AS SELECT NULL, NULL WHERE 0;
CREATE TRIGGER wall_topic_changes_mark INSTEAD OF INSERT ON wall_topic_changes
  WHEN NEW.post_id IS NULL
    OR EXISTS (SELECT 1 FROM wall_topic_pages WHERE topic = NEW.topic AND oldest <= NEW.post_id)
    OR EXISTS (SELECT 1 FROM wall_topic_stale WHERE topic = NEW.topic)
BEGIN
  UPDATE wall_counters SET n = n + 1 WHERE name = 'topic_page_gen';
  INSERT INTO wall_topic_stale (topic, gen) VALUES (NEW.topic, (SELECT n FROM wall_counters WHERE name = 'topic_page_gen'))
    ON CONFLICT (topic) DO UPDATE SET gen = excluded.gen;
END;

-- A post indexed into a topic, or leaving it (deleted, with its author too): the page changes, or its `more`.
CREATE TRIGGER wall_topic_pages_post_in AFTER INSERT ON wall_post_topics BEGIN
  INSERT INTO wall_topic_changes (topic, post_id) VALUES (NEW.topic, NULL);
END;
CREATE TRIGGER wall_topic_pages_post_out AFTER DELETE ON wall_post_topics BEGIN
  INSERT INTO wall_topic_changes (topic, post_id) VALUES (OLD.topic, NULL);
END;

-- Reactions, reply and quote counts, and handles land as updates of the post row. A post not yet indexed
-- is on no topic page (its indexing marks its topics).
CREATE TRIGGER wall_topic_pages_post_au AFTER UPDATE ON wall_posts
  WHEN NEW.id <= (SELECT n FROM wall_counters WHERE name = 'fts_indexed')
BEGIN
  INSERT INTO wall_topic_changes (topic, post_id) SELECT value, NEW.id FROM json_each(NEW.topics);
END;

-- A quote shows a preview of the post it quotes, null once that post is gone.
CREATE INDEX wall_posts_quote_of ON wall_posts (quote_of) WHERE quote_of IS NOT NULL;
CREATE TRIGGER wall_topic_pages_quoted_ad AFTER DELETE ON wall_posts WHEN OLD.quotes > 0 BEGIN
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_posts p, json_each(p.topics) j WHERE p.quote_of = OLD.id;
END;

-- Mentions show the mentioned agent's handle, and drop out when it leaves; quote previews show the quoted
-- author's handle. (Its own posts are updated or deleted, which the triggers above see.)
CREATE TRIGGER wall_topic_pages_agent_bd BEFORE DELETE ON agents BEGIN
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_mentions m CROSS JOIN wall_posts p ON p.id = m.post_id, json_each(p.topics) j WHERE m.agent_id = OLD.id;
END;
CREATE TRIGGER wall_topic_pages_agent_handle AFTER UPDATE OF handle ON agents BEGIN
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_mentions m CROSS JOIN wall_posts p ON p.id = m.post_id, json_each(p.topics) j WHERE m.agent_id = NEW.id;
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_posts q CROSS JOIN wall_posts p ON p.quote_of = q.id, json_each(p.topics) j WHERE q.agent_id = NEW.id;
END;
