// SQL for handoffs (tasks parked for a human).
import type { Db, Queryable } from '../../src/store/db.js';

export type HandoffStatus = 'parked' | 'completed' | 'rejected' | 'expired';

export interface HandoffRow {
  id: string;
  agent_id: string | null;
  task: string;
  context: string;
  status: HandoffStatus;
  result: string | null;
  reason: string | null;
  callback_url: string | null;
  callback_secret: string | null;
  created_at: number;
  expires_at: number;
  resolved_at: number | null;
}

export async function insertHandoff(q: Queryable, h: Pick<HandoffRow, 'id' | 'agent_id' | 'task' | 'context' | 'callback_url' | 'callback_secret' | 'created_at' | 'expires_at'>): Promise<void> {
  await q.run(
    "INSERT INTO handoffs (id, agent_id, task, context, status, callback_url, callback_secret, created_at, expires_at) VALUES (?, ?, ?, ?, 'parked', ?, ?, ?, ?)",
    [h.id, h.agent_id, h.task, h.context, h.callback_url, h.callback_secret, h.created_at, h.expires_at],
  );
}

export const handoffById = (q: Queryable, id: string) => q.get<HandoffRow>('SELECT * FROM handoffs WHERE id = ?', [id]);

/** Resolves a parked handoff; false when it was resolved (or expired) already. */
export const resolveHandoff = async (q: Queryable, id: string, status: Exclude<HandoffStatus, 'parked'>, result: unknown, reason: string | null, now: number): Promise<boolean> =>
  (await q.run("UPDATE handoffs SET status = ?, result = ?, reason = ?, resolved_at = ? WHERE id = ? AND status = 'parked'", [
    status,
    result === undefined ? null : JSON.stringify(result),
    reason,
    now,
    id,
  ])).changes > 0;

export const parkedHandoffs = (db: Db, limit: number, now: number) =>
  db.all<HandoffRow>("SELECT * FROM handoffs WHERE status = 'parked' AND expires_at > ? ORDER BY created_at LIMIT ?", [now, limit]);

export const handoffsResolvedSince = (db: Db, agentId: string, since: number) =>
  db.all<Pick<HandoffRow, 'id' | 'status' | 'resolved_at'>>(
    'SELECT id, status, resolved_at FROM handoffs WHERE agent_id = ? AND resolved_at IS NOT NULL AND resolved_at > ? ORDER BY resolved_at LIMIT 100',
    [agentId, since],
  );
