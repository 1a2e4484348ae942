-- Durable timed work (docs/decisions/durable-work.md): every job, timer, handoff expiry, watch check and webhook delivery is a
-- row with a due time, claimed under a lease (owner + expiry), so a crash or a second gateway process never
-- runs it twice and a restart never loses it.
CREATE TABLE work_items (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (kind, ref)
);
CREATE INDEX work_items_due ON work_items (due_at);

CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  input TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
  result TEXT,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  callback_url TEXT,
  callback_secret TEXT,
  callback TEXT,                 -- delivery outcome (JSON)
  created_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX jobs_owner ON jobs (agent_id, finished_at);

CREATE TABLE handoffs (
  id TEXT PRIMARY KEY,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  task TEXT NOT NULL,
  context TEXT NOT NULL DEFAULT 'null',
  status TEXT NOT NULL CHECK (status IN ('parked', 'completed', 'rejected', 'expired')),
  result TEXT,
  reason TEXT,
  callback_url TEXT,
  callback_secret TEXT,
  callback TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  resolved_at INTEGER
);
CREATE INDEX handoffs_status ON handoffs (status, created_at);
CREATE INDEX handoffs_owner ON handoffs (agent_id, resolved_at);

CREATE TABLE watches (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  interval_hours REAL NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('raw', 'text', 'selector')),
  selector TEXT,
  callback_url TEXT,
  status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'expired', 'cancelled')),
  created_at INTEGER NOT NULL,
  renewed_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  owner_seen_at INTEGER NOT NULL,
  last_checked_at INTEGER,
  last_hash TEXT,
  last_artifact_id TEXT,
  last_changed_at INTEGER,
  last_error TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  checks INTEGER NOT NULL DEFAULT 0,
  changes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX watches_owner ON watches (agent_id, status);

-- Per-agent webhook signing secret (readable by the owner), created on first use.
CREATE TABLE webhook_secrets (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE beats (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  last_beat_at INTEGER NOT NULL,
  streak INTEGER NOT NULL,
  longest INTEGER NOT NULL,
  total INTEGER NOT NULL
);

-- Signed webhook deliveries (job, handoff and watch callbacks): each attempt is recorded.
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,          -- job, handoff, watch
  ref TEXT NOT NULL,             -- the job, handoff or watch id
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  body TEXT NOT NULL,
  secret TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX webhook_deliveries_ref ON webhook_deliveries (source, ref);
