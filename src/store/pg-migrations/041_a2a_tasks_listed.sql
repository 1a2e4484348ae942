-- An agent's A2A tasks, newest update first (A2A v1.0 ListTasks, issue 41; SQLite's 041).
DROP INDEX a2a_tasks_agent;
CREATE INDEX a2a_tasks_agent ON a2a_tasks (agent_id, updated_at) WHERE agent_id IS NOT NULL;
