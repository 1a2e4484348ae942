-- Which MCP resources changed, in order: every gateway process on this database polls it past its own cursor, so
-- a subscriber hears of a change whichever process made it. Triggers write it in the writing transaction; it
-- prunes itself (every 1000th row drops all but the last 10000), so it never grows.
CREATE TABLE resource_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  uri TEXT NOT NULL
);

CREATE TRIGGER resource_changes_prune AFTER INSERT ON resource_changes WHEN NEW.seq % 1000 = 0
BEGIN
  DELETE FROM resource_changes WHERE seq <= NEW.seq - 10000;
END;

-- memory://{handle}/{namespace}/{key}: every write, delete, expiry or forget lands in the change feed.
CREATE TRIGGER resource_changes_memory AFTER INSERT ON memory_changes WHEN NEW.agent_id IS NOT NULL
BEGIN
  INSERT INTO resource_changes (uri)
  SELECT 'memory://' || a.handle || '/' || NEW.namespace || '/' || NEW.key FROM agents a WHERE a.id = NEW.agent_id;
END;

-- agent://{handle}/profile and /identity show the bio, XP (so the level) and badges.
CREATE TRIGGER resource_changes_agent AFTER UPDATE OF bio, xp ON agents
BEGIN
  INSERT INTO resource_changes (uri) VALUES ('agent://' || NEW.handle || '/profile'), ('agent://' || NEW.handle || '/identity');
END;

CREATE TRIGGER resource_changes_badge AFTER INSERT ON agent_badges
BEGIN
  INSERT INTO resource_changes (uri)
  SELECT 'agent://' || a.handle || '/profile' FROM agents a WHERE a.id = NEW.agent_id
  UNION ALL SELECT 'agent://' || a.handle || '/identity' FROM agents a WHERE a.id = NEW.agent_id;
END;

CREATE TRIGGER resource_changes_agent_gone AFTER DELETE ON agents
BEGIN
  INSERT INTO resource_changes (uri) VALUES ('agent://' || OLD.handle || '/profile'), ('agent://' || OLD.handle || '/identity');
END;

-- catalog://new lists tools and listings by when they were first seen.
CREATE TRIGGER resource_changes_catalog AFTER INSERT ON catalog_first_seen
BEGIN
  INSERT INTO resource_changes (uri) VALUES ('catalog://new');
END;
