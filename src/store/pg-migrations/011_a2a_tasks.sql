-- PostgreSQL port of migrations/011_a2a_tasks.sql. A2A tasks (issue 9): one row per task with its status,
-- history and artifacts as JSON, so answering a message is one write. context_id groups the tasks of a
-- conversation. A task sent with an agent's secret belongs to that agent and goes when the agent goes;
-- anonymous tasks (agent_id NULL) are read by their id. waiting_kind/waiting_ref name the durable work (a job
-- or a handoff) a working task waits for.
CREATE TABLE a2a_tasks (
  id TEXT PRIMARY KEY,
  context_id TEXT NOT NULL,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown')),
  status JSON NOT NULL,
  history JSON NOT NULL DEFAULT '[]',
  artifacts JSON NOT NULL DEFAULT '[]',
  waiting_kind TEXT CHECK (waiting_kind IN ('job', 'handoff')),
  waiting_ref TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX a2a_tasks_context ON a2a_tasks (context_id, created_at);
-- Partial: anonymous tasks (most of them) stay out; deleting an agent still finds its tasks by index.
CREATE INDEX a2a_tasks_agent ON a2a_tasks (agent_id) WHERE agent_id IS NOT NULL;
-- Partial: most tasks never wait, so most inserts skip this index.
CREATE INDEX a2a_tasks_waiting ON a2a_tasks (waiting_kind, waiting_ref) WHERE waiting_ref IS NOT NULL;
