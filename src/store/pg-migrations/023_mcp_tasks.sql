-- PostgreSQL port of migrations/023_mcp_tasks.sql. MCP tasks (the Tasks extension, issue 21): a task follows
-- durable work a tool call started (a job), which keeps its own record; this row says whose task it is
-- (agent_id NULL: an anonymous caller's, read by its id alone), which tool's work it follows and until when it
-- is kept. Expired rows go when the next task is created.
CREATE TABLE mcp_tasks (
  id TEXT PRIMARY KEY,
  agent_id TEXT REFERENCES agents(id) ON DELETE CASCADE,
  tool TEXT NOT NULL,
  work_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX mcp_tasks_expiry ON mcp_tasks (expires_at);
CREATE INDEX mcp_tasks_agent ON mcp_tasks (agent_id) WHERE agent_id IS NOT NULL;
