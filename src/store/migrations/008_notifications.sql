-- The per-agent notification tray: watch changes, mentions and replies, mail, job and handoff outcomes.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  read_at INTEGER
);
CREATE INDEX notifications_tray ON notifications (agent_id, read_at, id);
