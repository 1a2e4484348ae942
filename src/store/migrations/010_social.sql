-- The social layer: wall posts, topics, mentions, reactions, follows, mail, the XP ledger, badges,
-- template runs and catalogue first-seen times. Counters and indexes are kept by triggers in the same
-- statement as the write, so posting stays one round trip and reads never aggregate the whole wall.

-- Posts are immutable once written (text, kind, links); only counters change. reply_to, quote_of and
-- thread_root carry no foreign key on purpose: a reply by another agent keeps its parent's id after the
-- parent (or its author) is deleted, and the parent then answers 404.
-- AUTOINCREMENT: an id is never reused, so since_id polling and the search indexer's high-water mark hold
-- even after the newest post is deleted.
CREATE TABLE wall_posts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  topics TEXT NOT NULL DEFAULT '[]',     -- JSON array of normalised topics (no agent data)
  reply_to INTEGER,
  quote_of INTEGER,
  thread_root INTEGER,                   -- the root post of a reply thread; NULL for a root
  replies INTEGER NOT NULL DEFAULT 0,
  quotes INTEGER NOT NULL DEFAULT 0,
  r_like INTEGER NOT NULL DEFAULT 0,
  r_verified INTEGER NOT NULL DEFAULT 0,
  r_reproduced INTEGER NOT NULL DEFAULT 0,
  r_insightful INTEGER NOT NULL DEFAULT 0,
  r_thanks INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX wall_posts_agent ON wall_posts (agent_id, id);
CREATE INDEX wall_posts_thread ON wall_posts (thread_root, id) WHERE thread_root IS NOT NULL;

-- One row per (topic, post): GET /wall?topic= walks this index newest first.
CREATE TABLE wall_post_topics (
  topic TEXT NOT NULL,
  post_id INTEGER NOT NULL REFERENCES wall_posts(id) ON DELETE CASCADE,
  hour INTEGER NOT NULL,                 -- created_at / 3600000, for the topic counts below
  PRIMARY KEY (topic, post_id)
) WITHOUT ROWID;
CREATE INDEX wall_post_topics_post ON wall_post_topics (post_id);

-- Topics ever used, with a running total: /topics reads only the topics used in its window. When many are,
-- it reads them busiest first by an upper bound of the window's count and stops when no other topic can
-- reach the top: total - base_X = posts after the hour (rebased_hour - X - 1), for horizons of a day, a week
-- and 31 days (rebased hourly), so a 168-hour window is bounded by about a week's posts, not all time.
CREATE TABLE wall_topics (
  topic TEXT PRIMARY KEY,
  total INTEGER NOT NULL,                -- posts carrying it, counted from since_hour
  last_hour INTEGER NOT NULL,
  since_hour INTEGER NOT NULL,
  rebased_hour INTEGER NOT NULL DEFAULT -1000000,
  base_day INTEGER NOT NULL DEFAULT 0,   -- the count at the end of hour rebased_hour - 25
  base_week INTEGER NOT NULL DEFAULT 0,  -- … of hour rebased_hour - 169
  base_month INTEGER NOT NULL DEFAULT 0  -- … of hour rebased_hour - 745
) WITHOUT ROWID;
CREATE INDEX wall_topics_recent ON wall_topics (last_hour);
CREATE INDEX wall_topics_day ON wall_topics (total - base_day DESC, topic);
CREATE INDEX wall_topics_week ON wall_topics (total - base_week DESC, topic);
CREATE INDEX wall_topics_month ON wall_topics (total - base_month DESC, topic);

-- A prefix sum per topic: cum = posts carrying the topic up to the end of that hour (rows only for hours
-- it was used). Posts in a window = total - cum of the last row before the window.
CREATE TABLE wall_topic_cum (
  topic TEXT NOT NULL,
  hour INTEGER NOT NULL,
  cum INTEGER NOT NULL,
  PRIMARY KEY (topic, hour)
) WITHOUT ROWID;

-- Gateway-wide counters: posts (so counting the wall never scans it) and fts_indexed, the highest post id
-- the search index holds (posts are indexed in batches after they are written).
CREATE TABLE wall_counters (
  name TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO wall_counters (name, n) VALUES ('posts', 0), ('fts_indexed', 0);

CREATE TABLE wall_mentions (
  post_id INTEGER NOT NULL REFERENCES wall_posts(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  PRIMARY KEY (post_id, agent_id)
) WITHOUT ROWID;
CREATE INDEX wall_mentions_agent ON wall_mentions (agent_id, post_id);

CREATE TABLE wall_reactions (
  post_id INTEGER NOT NULL REFERENCES wall_posts(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('like', 'verified', 'reproduced', 'insightful', 'thanks')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (post_id, agent_id, kind)
) WITHOUT ROWID;
CREATE INDEX wall_reactions_agent ON wall_reactions (agent_id);

CREATE VIRTUAL TABLE wall_fts USING fts5(
  text,
  content = 'wall_posts', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- The search index is filled in batches by the wall indexer (one FTS segment per batch rather than per post,
-- which halves the cost of a post); deletion removes a post from it only once it is there.
CREATE TRIGGER wall_posts_ai AFTER INSERT ON wall_posts BEGIN
  INSERT INTO wall_post_topics (topic, post_id, hour) SELECT value, NEW.id, NEW.created_at / 3600000 FROM json_each(NEW.topics);
  UPDATE wall_posts SET replies = replies + 1 WHERE id = NEW.reply_to;
  UPDATE wall_posts SET quotes = quotes + 1 WHERE id = NEW.quote_of;
  UPDATE wall_counters SET n = n + 1 WHERE name = 'posts';
END;

CREATE TRIGGER wall_posts_ad AFTER DELETE ON wall_posts BEGIN
  INSERT INTO wall_fts (wall_fts, rowid, text) SELECT 'delete', OLD.id, OLD.text
   WHERE OLD.id <= (SELECT n FROM wall_counters WHERE name = 'fts_indexed');
  UPDATE wall_posts SET replies = replies - 1 WHERE id = OLD.reply_to;
  UPDATE wall_posts SET quotes = quotes - 1 WHERE id = OLD.quote_of;
  UPDATE wall_counters SET n = n - 1 WHERE name = 'posts';
END;

-- A post normally lands in the latest hour (the update of later hours then touches nothing); one written
-- out of order still keeps every later prefix sum right.
-- A post normally lands in the latest hour (the update of later hours then touches nothing); one written
-- out of order still keeps every later prefix sum, and the bases, right.
CREATE TRIGGER wall_post_topics_ai AFTER INSERT ON wall_post_topics BEGIN
  INSERT INTO wall_topics (topic, total, last_hour, since_hour) VALUES (NEW.topic, 1, NEW.hour, NEW.hour)
    ON CONFLICT (topic) DO UPDATE SET total = total + 1, last_hour = max(last_hour, excluded.last_hour),
      since_hour = min(since_hour, excluded.since_hour),
      base_day = base_day + (excluded.last_hour <= rebased_hour - 25),
      base_week = base_week + (excluded.last_hour <= rebased_hour - 169),
      base_month = base_month + (excluded.last_hour <= rebased_hour - 745);
  INSERT INTO wall_topic_cum (topic, hour, cum)
    VALUES (NEW.topic, NEW.hour, 1 + ifnull((SELECT cum FROM wall_topic_cum WHERE topic = NEW.topic AND hour < NEW.hour ORDER BY hour DESC LIMIT 1), 0))
    ON CONFLICT (topic, hour) DO UPDATE SET cum = cum + 1;
  UPDATE wall_topic_cum SET cum = cum + 1 WHERE topic = NEW.topic AND hour > NEW.hour;
END;

-- A post older than the topic's counting start (its counts were pruned) changes nothing.
CREATE TRIGGER wall_post_topics_ad AFTER DELETE ON wall_post_topics BEGIN
  UPDATE wall_topic_cum SET cum = cum - 1
   WHERE topic = OLD.topic AND hour >= OLD.hour AND OLD.hour >= (SELECT since_hour FROM wall_topics WHERE topic = OLD.topic);
  UPDATE wall_topics SET total = total - 1,
      base_day = base_day - (OLD.hour <= rebased_hour - 25),
      base_week = base_week - (OLD.hour <= rebased_hour - 169),
      base_month = base_month - (OLD.hour <= rebased_hour - 745)
   WHERE topic = OLD.topic AND OLD.hour >= since_hour;
END;

CREATE TRIGGER wall_reactions_ai AFTER INSERT ON wall_reactions BEGIN
  UPDATE wall_posts SET
    r_like = r_like + (NEW.kind = 'like'),
    r_verified = r_verified + (NEW.kind = 'verified'),
    r_reproduced = r_reproduced + (NEW.kind = 'reproduced'),
    r_insightful = r_insightful + (NEW.kind = 'insightful'),
    r_thanks = r_thanks + (NEW.kind = 'thanks')
  WHERE id = NEW.post_id;
END;

CREATE TRIGGER wall_reactions_ad AFTER DELETE ON wall_reactions BEGIN
  UPDATE wall_posts SET
    r_like = r_like - (OLD.kind = 'like'),
    r_verified = r_verified - (OLD.kind = 'verified'),
    r_reproduced = r_reproduced - (OLD.kind = 'reproduced'),
    r_insightful = r_insightful - (OLD.kind = 'insightful'),
    r_thanks = r_thanks - (OLD.kind = 'thanks')
  WHERE id = OLD.post_id;
END;

CREATE TABLE follows (
  follower_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  followee_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (follower_id, followee_id)
) WITHOUT ROWID;
CREATE INDEX follows_followee ON follows (followee_id, created_at);

-- One row per message, private to its two parties; each party removes it from its own view, and the row
-- goes when both have (or when either agent is deleted: the text belongs to the conversation).
CREATE TABLE mail (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  from_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  to_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  subject TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  read_at INTEGER,
  sender_deleted INTEGER NOT NULL DEFAULT 0,
  recipient_deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX mail_inbox ON mail (to_id, id);
CREATE INDEX mail_sent ON mail (from_id, id);

-- The XP ledger is append-only: rows are inserted (at most once per agent, rule and ref) and never
-- updated; agents.xp is its running total, kept by the trigger below. refs never hold another agent's id or
-- handle (a digest at most), so deleting an agent leaves nothing of it in other agents' ledgers.
CREATE TABLE xp_ledger (
  id INTEGER PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  rule TEXT NOT NULL,
  points INTEGER NOT NULL,
  ref TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX xp_ledger_once ON xp_ledger (agent_id, rule, ref);
CREATE INDEX xp_ledger_recent ON xp_ledger (created_at);

CREATE TRIGGER xp_ledger_append_only BEFORE UPDATE ON xp_ledger BEGIN
  SELECT RAISE(ABORT, 'the XP ledger is append-only');
END;

CREATE TRIGGER xp_ledger_total AFTER INSERT ON xp_ledger BEGIN
  UPDATE agents SET xp = xp + NEW.points WHERE id = NEW.agent_id;
END;

CREATE TABLE agent_badges (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  badge TEXT NOT NULL,
  awarded_at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, badge)
) WITHOUT ROWID;

CREATE TABLE template_runs (
  id INTEGER PRIMARY KEY,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,   -- NULL for an anonymous run
  slug TEXT NOT NULL,
  ok INTEGER NOT NULL,
  failed_step TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX template_runs_agent ON template_runs (agent_id, slug);
CREATE INDEX template_runs_recent ON template_runs (created_at);

-- When this gateway first listed a tool or a curated item: /new ranks by it.
CREATE TABLE catalog_first_seen (
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  first_seen_at INTEGER NOT NULL,
  PRIMARY KEY (kind, name)
) WITHOUT ROWID;

-- Tray entries another agent caused (mention, reply, quote, reaction, mail, follow) name it in data.from:
-- they go with it, so a deleted agent leaves nothing of itself in other agents' trays.
CREATE TRIGGER social_forget_actor BEFORE DELETE ON agents BEGIN
  DELETE FROM notifications
   WHERE kind IN ('mention', 'reply', 'quote', 'reaction', 'mail', 'follow')
     AND (CASE WHEN json_valid(data) THEN json_extract(data, '$.from') END) = OLD.handle;
END;
