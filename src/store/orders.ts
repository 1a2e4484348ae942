// SQL for commercial orders (issue 23). Every change of status or payment state is a guarded UPDATE (… WHERE
// status IN (…)), so two processes working the same order, or a retry after a crash, change it only once.
import type { BatchStatement, Queryable } from './db.js';
import type { RailName } from '../commerce/rails.js';

export type OrderStatus = 'placed' | 'working' | 'delivered' | 'revision_requested' | 'accepted' | 'failed' | 'canceled';
export type PaymentState = 'held' | 'captured' | 'released';

export interface OrderRow {
  id: string;
  account_id: string;
  service: string;
  price_id: string;
  status: OrderStatus;
  price: number;
  charged: number | null;
  rail: RailName;
  hold_ref: string;
  hold_amount: number;
  hold_data: string | null;
  payment_state: PaymentState;
  input: string;
  result: string | null;
  usage: string | null;
  error: string | null;
  produced_at: number | null;
  handoff_id: string | null;
  revisions: number;
  revision_notes: string | null;
  webhook_url: string | null;
  webhook_secret: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  closed_at: number | null;
  accept_by: number | null;
}

const COLUMNS = [
  'id', 'account_id', 'service', 'price_id', 'status', 'price', 'charged', 'rail', 'hold_ref', 'hold_amount', 'hold_data', 'payment_state',
  'input', 'result', 'usage', 'error', 'produced_at', 'handoff_id', 'revisions', 'revision_notes', 'webhook_url', 'webhook_secret', 'created_at', 'updated_at',
  'delivered_at', 'closed_at', 'accept_by',
] as const;

const INSERT_ORDER = `INSERT INTO orders (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;

export const insertOrderStatement = (o: OrderRow): BatchStatement => ({ sql: INSERT_ORDER, params: COLUMNS.map((c) => o[c]) });

export async function insertOrder(q: Queryable, o: OrderRow): Promise<void> {
  await q.run(INSERT_ORDER, COLUMNS.map((c) => o[c]));
}

export const orderById = (q: Queryable, id: string) => q.get<OrderRow>('SELECT * FROM orders WHERE id = ?', [id]);

/** The account's orders, newest first; `before` pages by (created_at, id) of the last one seen. */
export function ordersOf(q: Queryable, accountId: string, o: { limit: number; status?: OrderStatus; before?: { at: number; id: string } }) {
  const where = ['account_id = ?'];
  const params: (string | number)[] = [accountId];
  if (o.status) {
    where.push('status = ?');
    params.push(o.status);
  }
  if (o.before) {
    where.push('(created_at < ? OR (created_at = ? AND id < ?))');
    params.push(o.before.at, o.before.at, o.before.id);
  }
  return q.all<OrderRow>(`SELECT * FROM orders WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`, [...params, o.limit]);
}

type Changes = Partial<Pick<OrderRow, 'result' | 'usage' | 'error' | 'charged' | 'produced_at' | 'handoff_id' | 'revisions' | 'revision_notes' | 'delivered_at' | 'closed_at' | 'accept_by'>>;

/** The move of the order from one of `from` to `to` (with `changes`), as a statement. */
export function transitionStatement(id: string, from: OrderStatus[], to: OrderStatus, now: number, changes: Changes = {}): BatchStatement {
  const entries = Object.entries(changes);
  const sets = ['status = ?', 'updated_at = ?', ...entries.map(([k]) => `${k} = ?`)];
  return {
    sql: `UPDATE orders SET ${sets.join(', ')} WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
    params: [to, now, ...entries.map(([, v]) => v as string | number | null), id, ...from],
  };
}

/** Moves the order from one of `from` to `to` (with `changes`); false when it was not in any of them. */
export async function transition(q: Queryable, id: string, from: OrderStatus[], to: OrderStatus, now: number, changes: Changes = {}): Promise<boolean> {
  const s = transitionStatement(id, from, to, now, changes);
  return (await q.run(s.sql, s.params)).changes > 0;
}

/** Records the handoff a person works the order through. */
export async function setHandoff(q: Queryable, id: string, handoffId: string, now: number): Promise<void> {
  await q.run('UPDATE orders SET handoff_id = ?, updated_at = ? WHERE id = ?', [handoffId, now, id]);
}

/** Stores the deliverable of a working order once (false when it was canceled or stored already). */
export async function storeProduced(q: Queryable, id: string, o: { result: string; usage: string | null; charge: number; now: number }): Promise<boolean> {
  const r = await q.run("UPDATE orders SET result = ?, usage = ?, charged = ?, produced_at = ?, updated_at = ? WHERE id = ? AND status = 'working' AND produced_at IS NULL", [
    o.result,
    o.usage,
    o.charge,
    o.now,
    o.now,
    id,
  ]);
  return r.changes > 0;
}

/** Cancels an order nothing has been made for yet; false when it is too late (made, delivered or closed). */
export async function cancelOrder(q: Queryable, id: string, now: number): Promise<boolean> {
  const r = await q.run(
    "UPDATE orders SET status = 'canceled', closed_at = ?, updated_at = ? WHERE id = ? AND status IN ('placed', 'working') AND produced_at IS NULL AND delivered_at IS NULL",
    [now, now, id],
  );
  return r.changes > 0;
}

/** The closing of the hold (held → captured or released), as a statement: it changes nothing once closed. */
export const closeHoldStatement = (id: string, state: 'captured' | 'released', charged: number, now: number): BatchStatement => ({
  sql: "UPDATE orders SET payment_state = ?, charged = ?, updated_at = ? WHERE id = ? AND payment_state = 'held'",
  params: [state, charged, now, id],
});

/** Closes the hold (held → captured or released) once; false when it was closed already. */
export async function closeHold(q: Queryable, id: string, state: 'captured' | 'released', charged: number, now: number): Promise<boolean> {
  const s = closeHoldStatement(id, state, charged, now);
  return (await q.run(s.sql, s.params)).changes > 0;
}

export interface ServiceUsage {
  service: string;
  orders: number;
  delivered: number;
  spent: number;
}

export interface AccountUsage {
  balance: number;
  open_orders: number;
  held: number;
  captured: number;
  charges: number;
  /** Per service in the month asked for: orders placed, delivered, and micro-dollars captured. */
  services: ServiceUsage[];
}

type UsageRow = Omit<AccountUsage, 'services'> & { service: string | null; orders: number | null; delivered: number | null; spent: number | null };

/**
 * The balance with open orders, what they hold, all captured charges, and this UTC month's (`YYYY-MM`) use per
 * service, all kept by triggers: one statement, so the totals and the month are read in one snapshot (a row per
 * service, the totals repeated; one row with no service when the month has none).
 */
export async function accountUsage(q: Queryable, accountId: string, month: string): Promise<AccountUsage> {
  const rows = await q.all<UsageRow>(
    `SELECT b.balance, COALESCE(s.open_orders, 0) AS open_orders, COALESCE(s.held, 0) AS held, COALESCE(s.captured, 0) AS captured,
            COALESCE(s.charges, 0) AS charges, m.service, m.orders, m.delivered, m.spent
     FROM account_balances b
     LEFT JOIN account_stats s ON s.account_id = b.account_id
     LEFT JOIN account_month_usage m ON m.account_id = b.account_id AND m.month = ?
     WHERE b.account_id = ? ORDER BY m.service`,
    [month, accountId],
  );
  const t = rows[0] ?? { balance: 0, open_orders: 0, held: 0, captured: 0, charges: 0 };
  const services: ServiceUsage[] = [];
  for (const r of rows) if (r.service !== null) services.push({ service: r.service, orders: r.orders ?? 0, delivered: r.delivered ?? 0, spent: r.spent ?? 0 });
  return { balance: t.balance, open_orders: t.open_orders, held: t.held, captured: t.captured, charges: t.charges, services };
}
