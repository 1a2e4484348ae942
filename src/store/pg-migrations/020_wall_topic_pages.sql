-- PostgreSQL port of migrations/020_wall_topic_pages.sql. The first page of every topic (GET /wall?topic=X,
-- limit 50), kept built: a topic read is then one row instead of fifty posts built (docs/decisions/social.md).
-- A page is current while its topic has no row in wall_topic_stale: every change a page could show marks the
-- topic stale in the same transaction, and the page builder (tools/wall/topic-pages.ts) builds stale topics
-- again in the background, replacing their pages. Pages hold absolute post URLs, so each row says which base
-- URL it was built for.
CREATE TABLE wall_topic_pages (
  topic TEXT PRIMARY KEY,
  base TEXT NOT NULL,
  count BIGINT NOT NULL,
  newest BIGINT,
  oldest BIGINT,
  more BIGINT NOT NULL,
  json BYTEA NOT NULL                    -- the page's JSON text as bytes (a BLOB in SQLite)
);

-- gen: a fresh number at every mark. The builder reads it with the page it builds, in one snapshot, and
-- stores the page only if the topic still carries that number, so a change made while it was building wins.
CREATE TABLE wall_topic_stale (
  topic TEXT PRIMARY KEY,
  gen BIGINT NOT NULL
);
CREATE INDEX wall_topic_stale_gen ON wall_topic_stale (gen);
INSERT INTO wall_counters (name, n) VALUES ('topic_page_gen', 0);

-- Every topic /topics still counts gets its page (the hourly prune drops the pages of the others).
INSERT INTO wall_topic_stale (topic, gen) SELECT topic, 0 FROM wall_topics;

-- A change to topic `topic`: to the membership of its posts (post_id NULL), or to post `post_id` carrying it,
-- which matters only if that post is on the page (oldest <= post_id). A topic already stale is marked
-- again, so a build in flight for it is not stored. Every topic with a page or a stale mark has posts indexed.
-- An INSTEAD OF trigger takes no WHEN clause in PostgreSQL: the condition is the body's IF.
CREATE VIEW wall_topic_changes (topic, post_id) AS SELECT NULL::text, NULL::bigint WHERE false;
CREATE FUNCTION wall_topic_changes_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.post_id IS NULL
    OR EXISTS (SELECT 1 FROM wall_topic_pages p WHERE p.topic = NEW.topic AND p.oldest <= NEW.post_id)
    OR EXISTS (SELECT 1 FROM wall_topic_stale s WHERE s.topic = NEW.topic)
  THEN
    UPDATE wall_counters SET n = n + 1 WHERE name = 'topic_page_gen';
    INSERT INTO wall_topic_stale (topic, gen) VALUES (NEW.topic, (SELECT c.n FROM wall_counters c WHERE c.name = 'topic_page_gen'))
      ON CONFLICT (topic) DO UPDATE SET gen = excluded.gen;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER wall_topic_changes_mark INSTEAD OF INSERT ON wall_topic_changes FOR EACH ROW EXECUTE FUNCTION wall_topic_changes_mark();

-- A post indexed into a topic, or leaving it (deleted, with its author too): the page changes, or its `more`.
CREATE FUNCTION wall_topic_pages_post_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_topic_changes (topic, post_id) VALUES (NEW.topic, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER wall_topic_pages_post_in AFTER INSERT ON wall_post_topics FOR EACH ROW EXECUTE FUNCTION wall_topic_pages_post_in();
CREATE FUNCTION wall_topic_pages_post_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_topic_changes (topic, post_id) VALUES (OLD.topic, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER wall_topic_pages_post_out AFTER DELETE ON wall_post_topics FOR EACH ROW EXECUTE FUNCTION wall_topic_pages_post_out();

-- Reactions, reply and quote counts, and handles land as updates of the post row. A post not yet indexed
-- is on no topic page (its indexing marks its topics). (SQLite's WHEN holds a subquery: here it is the IF.)
CREATE FUNCTION wall_topic_pages_post_au() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id <= (SELECT c.n FROM wall_counters c WHERE c.name = 'fts_indexed') THEN
    INSERT INTO wall_topic_changes (topic, post_id) SELECT j.value, NEW.id FROM jsonb_array_elements_text(NEW.topics) j;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_topic_pages_post_au AFTER UPDATE ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_topic_pages_post_au();

-- A quote shows a preview of the post it quotes, null once that post is gone.
CREATE INDEX wall_posts_quote_of ON wall_posts (quote_of) WHERE quote_of IS NOT NULL;
CREATE FUNCTION wall_topic_pages_quoted_ad() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_posts p, jsonb_array_elements_text(p.topics) j WHERE p.quote_of = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_topic_pages_quoted_ad AFTER DELETE ON wall_posts FOR EACH ROW WHEN (OLD.quotes > 0)
  EXECUTE FUNCTION wall_topic_pages_quoted_ad();

-- Mentions show the mentioned agent's handle, and drop out when it leaves; quote previews show the quoted
-- author's handle. (Its own posts are updated or deleted, which the triggers above see.)
CREATE FUNCTION wall_topic_pages_agent_bd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_mentions m CROSS JOIN wall_posts p CROSS JOIN jsonb_array_elements_text(p.topics) j
     WHERE p.id = m.post_id AND m.agent_id = OLD.id;
  RETURN OLD;
END $$;
CREATE TRIGGER wall_topic_pages_agent_bd BEFORE DELETE ON agents FOR EACH ROW EXECUTE FUNCTION wall_topic_pages_agent_bd();
CREATE FUNCTION wall_topic_pages_agent_handle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_mentions m CROSS JOIN wall_posts p CROSS JOIN jsonb_array_elements_text(p.topics) j
     WHERE p.id = m.post_id AND m.agent_id = NEW.id;
  INSERT INTO wall_topic_changes (topic, post_id)
    SELECT j.value, p.id FROM wall_posts q CROSS JOIN wall_posts p CROSS JOIN jsonb_array_elements_text(p.topics) j
     WHERE p.quote_of = q.id AND q.agent_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER wall_topic_pages_agent_handle AFTER UPDATE OF handle ON agents FOR EACH ROW EXECUTE FUNCTION wall_topic_pages_agent_handle();
