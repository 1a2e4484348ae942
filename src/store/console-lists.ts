// The operator console's lists: agents, orders, API keys and x402 settlements, newest first, each with its filters,
// paged by offset (an operator pages a few screens, not millions of rows). Portable SQL for SQLite and PostgreSQL.
import type { Db, SqlValue } from './db.js';

export interface Page<T> {
  rows: T[];
  /** True when there is a row past this page. */
  more: boolean;
}

const likePrefix = (s: string): string => `${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function paged<T>(db: Db, sql: string, params: SqlValue[], limit: number, offset: number): Promise<Page<T>> {
  const rows = await db.all<T>(`${sql} LIMIT ? OFFSET ?`, [...params, limit + 1, offset]);
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

export interface AgentListRow {
  id: string;
  handle: string;
  created_at: number;
  last_seen_at: number | null;
  suspended_at: number | null;
  credits: number;
  storage_bytes: number;
  keys: number;
}

export function listAgents(db: Db, f: { handlePrefix?: string; limit: number; offset: number }): Promise<Page<AgentListRow>> {
  const where = f.handlePrefix ? "WHERE a.handle LIKE ? ESCAPE '\\'" : '';
  return paged(
    db,
    `SELECT a.id, a.handle, a.created_at, a.last_seen_at, a.suspended_at, COALESCE(c.balance, 0) AS credits, COALESCE(s.bytes, 0) AS storage_bytes,
            (SELECT COUNT(*) FROM api_keys k WHERE k.agent_id = a.id AND k.revoked_at IS NULL) AS keys
       FROM agents a LEFT JOIN credit_balances c ON c.agent_id = a.id LEFT JOIN storage_usage s ON s.owner_id = a.id
       ${where} ORDER BY a.created_at DESC, a.id DESC`,
    f.handlePrefix ? [likePrefix(f.handlePrefix)] : [],
    f.limit,
    f.offset,
  );
}

export interface OrderListRow {
  id: string;
  email: string;
  service: string;
  status: string;
  rail: string;
  price: number;
  charged: number | null;
  payment_state: string;
  created_at: number;
  refunded: number;
}

export function listOrders(db: Db, f: { status?: string; rail?: string; service?: string; limit: number; offset: number }): Promise<Page<OrderListRow>> {
  const conds: string[] = [];
  const params: SqlValue[] = [];
  for (const [col, v] of [['o.status', f.status], ['o.rail', f.rail], ['o.service', f.service]] as const) {
    if (v) {
      conds.push(`${col} = ?`);
      params.push(v);
    }
  }
  return paged(
    db,
    `SELECT o.id, r.email, o.service, o.status, o.rail, o.price, o.charged, o.payment_state, o.created_at,
            COALESCE((SELECT SUM(l.amount) FROM account_ledger l WHERE l.reference = 'refund:' || o.id AND l.kind = 'credit'), 0) AS refunded
       FROM orders o JOIN revenue_accounts r ON r.id = o.account_id
       ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''} ORDER BY o.created_at DESC, o.id DESC`,
    params,
    f.limit,
    f.offset,
  );
}

export interface KeyListRow {
  id: string;
  hint: string;
  tier: string;
  handle: string | null;
  created_at: number;
  revoked_at: number | null;
}

export function listKeys(db: Db, f: { tier?: string; state?: 'active' | 'revoked'; limit: number; offset: number }): Promise<Page<KeyListRow>> {
  const conds: string[] = [];
  const params: SqlValue[] = [];
  if (f.tier) {
    conds.push('k.tier = ?');
    params.push(f.tier);
  }
  if (f.state) conds.push(f.state === 'active' ? 'k.revoked_at IS NULL' : 'k.revoked_at IS NOT NULL');
  return paged(
    db,
    `SELECT k.id, k.hint, k.tier, a.handle, k.created_at, k.revoked_at FROM api_keys k LEFT JOIN agents a ON a.id = k.agent_id
       ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''} ORDER BY k.created_at DESC, k.id DESC`,
    params,
    f.limit,
    f.offset,
  );
}

export interface SettlementRow {
  id: string;
  network: string;
  payer: string;
  amount: string;
  tool: string;
  status: string;
  tx_hash: string | null;
  created_at: number;
  updated_at: number;
}

export function listSettlements(db: Db, f: { status?: string; payer?: string; limit: number; offset: number }): Promise<Page<SettlementRow>> {
  const conds: string[] = [];
  const params: SqlValue[] = [];
  if (f.status) {
    conds.push('status = ?');
    params.push(f.status);
  }
  if (f.payer) {
    conds.push('payer = ?');
    params.push(f.payer.toLowerCase());
  }
  return paged(
    db,
    `SELECT id, network, payer, amount, tool, status, tx_hash, created_at, updated_at FROM x402_payments
       ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC`,
    params,
    f.limit,
    f.offset,
  );
}

/** Revokes a key once; false when there is no such key or it was revoked already. */
export const revokeKey = async (db: Db, id: string, now: number): Promise<boolean> =>
  (await db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id])).changes > 0;

export const keyById = (db: Db, id: string) => db.get<{ id: string; hint: string; tier: string; revoked_at: number | null }>('SELECT id, hint, tier, revoked_at FROM api_keys WHERE id = ?', [id]);
