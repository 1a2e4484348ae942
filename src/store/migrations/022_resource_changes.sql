-- Which MCP resources changed, in order: every gateway process on this database polls it past its own cursor, so
-- a subscriber hears of a change whichever process made it. Memory entries are not copied here: their change
-- feed (memory_changes) is already such a log, read beside this one, so a memory write costs no extra row. Triggers write it in the writing transaction; it
-- prunes itself (every 1000th row drops all but the last 10000), so it never grows. A row of an agent's resource
-- names the agent by id (the URI is `scheme://<handle><path>`, the handle joined at read time), so deleting the
-- agent deletes its rows and no handle, namespace or key outlives it here.
CREATE TABLE resource_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  scheme TEXT NOT NULL,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  path TEXT NOT NULL
);
CREATE INDEX resource_changes_agent ON resource_changes (agent_id);

CREATE TRIGGER resource_changes_prune AFTER INSERT ON resource_changes WHEN NEW.seq % 1000 = 0
BEGIN
  DELETE FROM resource_changes WHERE seq <= NEW.seq - 10000;
END;

-- agent://{handle}/profile and /identity show the bio, XP (so the level) and badges.
CREATE TRIGGER resource_changes_agent AFTER UPDATE OF bio, xp ON agents
BEGIN
  INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('agent', NEW.id, '/profile'), ('agent', NEW.id, '/identity');
END;

CREATE TRIGGER resource_changes_badge AFTER INSERT ON agent_badges
BEGIN
  INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('agent', NEW.agent_id, '/profile'), ('agent', NEW.agent_id, '/identity');
END;

-- catalog://new lists tools and listings by when they were first seen.
CREATE TRIGGER resource_changes_catalog AFTER INSERT ON catalog_first_seen
BEGIN
  INSERT INTO resource_changes (scheme, agent_id, path) VALUES ('catalog', NULL, 'new');
END;
