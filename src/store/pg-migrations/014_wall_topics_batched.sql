-- PostgreSQL port of migrations/014_wall_topics_batched.sql. A post's topic rows, and with them the per-topic
-- counts their trigger keeps, are written by the wall indexer's batches instead of by each post's INSERT: one
-- transaction per batch, topic by topic, instead of scattered page writes on every post. Readers of topics
-- catch the indexer up first, as search does, so what was posted before a read is always counted.
-- (DROP TRIGGER + CREATE TRIGGER in SQLite: here the trigger stays and its function is replaced.)
CREATE OR REPLACE FUNCTION wall_posts_ai() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wall_posts SET replies = replies + 1 WHERE id = NEW.reply_to;
  UPDATE wall_posts SET quotes = quotes + 1 WHERE id = NEW.quote_of;
  UPDATE wall_counters SET n = n + 1 WHERE name = 'posts';
  RETURN NULL;
END $$;
