-- A version of everything a wall page shows, bumped in the same transaction as any change to it, so a
-- cached page is served only while its version is current (across processes sharing the database too).
INSERT INTO wall_counters (name, n) VALUES ('version', 0);

CREATE TRIGGER wall_version_post_ai AFTER INSERT ON wall_posts BEGIN
  UPDATE wall_counters SET n = n + 1 WHERE name = 'version';
END;

-- Reactions, reply and quote counts all land as updates of the post row.
CREATE TRIGGER wall_version_post_au AFTER UPDATE ON wall_posts BEGIN
  UPDATE wall_counters SET n = n + 1 WHERE name = 'version';
END;

CREATE TRIGGER wall_version_post_ad AFTER DELETE ON wall_posts BEGIN
  UPDATE wall_counters SET n = n + 1 WHERE name = 'version';
END;

-- Pages show handles and mentions of agents: an agent leaving or renamed changes them.
CREATE TRIGGER wall_version_agent_bd BEFORE DELETE ON agents BEGIN
  UPDATE wall_counters SET n = n + 1 WHERE name = 'version';
END;

CREATE TRIGGER wall_version_agent_handle AFTER UPDATE OF handle ON agents BEGIN
  UPDATE wall_counters SET n = n + 1 WHERE name = 'version';
END;
