-- PostgreSQL port of migrations/002_keys_usage.sql. API keys (shown once, stored hashed), monthly quota
-- counters, and per-tool daily usage.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  -- First characters of the key, safe to show ("agk_live_AbCd…").
  hint TEXT NOT NULL,
  -- Peppered HMAC of the lowercased email: enough to cap keys per email, never the address itself.
  email_hash TEXT NOT NULL,
  client_hash TEXT NOT NULL,
  tier TEXT NOT NULL CHECK (tier IN ('free', 'pro', 'enterprise')),
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX api_keys_email ON api_keys(email_hash);
CREATE INDEX api_keys_client ON api_keys(client_hash, created_at);
CREATE INDEX api_keys_agent ON api_keys(agent_id);

-- One counter per key, calendar month (UTC, 'YYYY-MM') and scope ('*' = all calls, or a tool name).
CREATE TABLE key_usage (
  key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  period TEXT NOT NULL,
  scope TEXT NOT NULL,
  used BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, period, scope)
);

-- Calls and errors per tool per UTC day, for /trending and /intelligence.
CREATE TABLE tool_usage (
  tool TEXT NOT NULL,
  day TEXT NOT NULL,
  calls BIGINT NOT NULL DEFAULT 0,
  errors BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (tool, day)
);
CREATE INDEX tool_usage_day ON tool_usage(day);
