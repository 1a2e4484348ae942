// SQL for MCP tasks (migration 023): who may see a task and which durable work it follows. The work's state is
// read from the work itself (a job row), never copied here, so a restart or another gateway process sees it.
import type { Queryable } from './db.js';

export interface McpTaskRow {
  id: string;
  agent_id: string | null;
  tool: string;
  work_id: string;
  created_at: number;
  expires_at: number;
}

export async function insertMcpTask(q: Queryable, t: McpTaskRow): Promise<void> {
  await q.run('INSERT INTO mcp_tasks (id, agent_id, tool, work_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
    t.id,
    t.agent_id,
    t.tool,
    t.work_id,
    t.created_at,
    t.expires_at,
  ]);
}

export const mcpTaskById = (q: Queryable, id: string) => q.get<McpTaskRow>('SELECT * FROM mcp_tasks WHERE id = ?', [id]);

/** Forgets tasks kept past their time (the work itself stays, under its own rules). */
export const deleteExpiredMcpTasks = async (q: Queryable, now: number): Promise<number> => (await q.run('DELETE FROM mcp_tasks WHERE expires_at < ?', [now])).changes;
