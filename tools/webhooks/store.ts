// SQL for webhook deliveries and per-agent signing secrets.
import type { Db, Queryable } from '../../src/store/db.js';

export interface DeliveryRow {
  id: number;
  source: string;
  ref: string;
  /** The agent the delivery is for (whose callback it calls), if any. */
  agent_id: string | null;
  url: string;
  body: string;
  secret: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: string;
  created_at: number;
  finished_at: number | null;
}

export async function insertDelivery(q: Queryable, d: { source: string; ref: string; agentId: string | null; url: string; body: string; secret: string; now: number }): Promise<number> {
  return (await q.get<{ id: number }>(
    "INSERT INTO webhook_deliveries (source, ref, agent_id, url, body, secret, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?) RETURNING id",
    [d.source, d.ref, d.agentId, d.url, d.body, d.secret, d.now],
  ))!.id;
}

export const deliveryById = (db: Db, id: number) => db.get<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ?', [id]);

export async function recordAttempt(db: Db, id: number, attempt: unknown, status: DeliveryRow['status'], now: number): Promise<void> {
  await db.run(APPEND_ATTEMPT[db.dialect], [JSON.stringify(attempt), status, status, now, id]);
}

const APPEND_ATTEMPT = {
  sqlite: `UPDATE webhook_deliveries SET attempts = json_insert(attempts, '$[#]', json(?)), status = ?, finished_at = CASE WHEN ? = 'pending' THEN NULL ELSE ? END WHERE id = ?`,
  postgres: `UPDATE webhook_deliveries SET attempts = attempts || jsonb_build_array(CAST(? AS JSONB)), status = ?, finished_at = CASE WHEN ? = 'pending' THEN NULL ELSE ? END WHERE id = ?`,
};

export const deliveriesFor = (db: Db, source: string, ref: string) =>
  db.all<Pick<DeliveryRow, 'id' | 'url' | 'status' | 'attempts' | 'created_at' | 'finished_at'>>(
    'SELECT id, url, status, attempts, created_at, finished_at FROM webhook_deliveries WHERE source = ? AND ref = ? ORDER BY id',
    [source, ref],
  );

export async function agentSecret(db: Db, agentId: string, fresh: string, now: number): Promise<string> {
  await db.run('INSERT INTO webhook_secrets (agent_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (agent_id) DO NOTHING', [agentId, fresh, now]);
  return (await db.get<{ secret: string }>('SELECT secret FROM webhook_secrets WHERE agent_id = ?', [agentId]))!.secret;
}
