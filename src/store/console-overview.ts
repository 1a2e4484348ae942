// The operator console's overview: aggregate SQL over a window of days, the same on SQLite and PostgreSQL (a day is
// the integer `at / 86400000`, turned into a date here, so no date function differs between the dialects). Every
// query reads an index ordered by the time it groups by (migration 045), so its cost follows the window, not the table.
import type { Db } from './db.js';

export const DAY_MS = 86_400_000;
const dayOf = (n: number | string): string => new Date(Number(n) * DAY_MS).toISOString().slice(0, 10);
const num = (v: unknown): number => Number(v ?? 0);

export interface DayCount {
  day: string;
  count: number;
}
export interface ToolDay {
  day: string;
  tool: string;
  calls: number;
}
export interface RevenueDay {
  day: string;
  service: string;
  rail: 'credits' | 'x402' | 'card';
  /** Micro-dollars (1 = US$0.000001); USDC's atomic unit is the same. */
  amount: number;
}
export interface FailureDay {
  day: string;
  kind: 'webhook' | 'job';
  count: number;
}
export interface StorageOwner {
  owner: string;
  kind: 'agent' | 'account';
  bytes: number;
}

/** Agents registered per day since `since` (ms). */
export async function agentsPerDay(db: Db, since: number): Promise<DayCount[]> {
  const rows = await db.all<{ d: number; n: number }>('SELECT created_at / 86400000 AS d, COUNT(*) AS n FROM agents WHERE created_at >= ? GROUP BY created_at / 86400000 ORDER BY d', [since]);
  return rows.map((r) => ({ day: dayOf(r.d), count: num(r.n) }));
}

/** Calls per day of the `top` most called tools of the window (tool_usage is kept per tool and day already). */
export async function topToolCalls(db: Db, sinceDay: string, top: number): Promise<ToolDay[]> {
  const tools = await db.all<{ tool: string }>('SELECT tool, SUM(calls) AS calls FROM tool_usage WHERE day >= ? GROUP BY tool ORDER BY calls DESC, tool LIMIT ?', [sinceDay, top]);
  if (tools.length === 0) return [];
  const names = tools.map((t) => t.tool);
  const rows = await db.all<{ tool: string; day: string; calls: number }>(
    `SELECT tool, day, calls FROM tool_usage WHERE day >= ? AND tool IN (${names.map(() => '?').join(', ')}) ORDER BY day, tool`,
    [sinceDay, ...names],
  );
  return rows.map((r) => ({ day: r.day, tool: r.tool, calls: num(r.calls) }));
}

/**
 * Money taken per day, service and rail: orders whose payment was captured (by the day it closed), and x402
 * payments for single calls that settled (the order holds among them are counted once, as their order).
 */
export async function revenuePerDay(db: Db, since: number): Promise<RevenueDay[]> {
  const orders = await db.all<{ d: number; service: string; rail: RevenueDay['rail']; amount: number }>(
    `SELECT closed_at / 86400000 AS d, service, rail, SUM(charged) AS amount FROM orders
      WHERE payment_state = 'captured' AND closed_at >= ? GROUP BY closed_at / 86400000, service, rail`,
    [since],
  );
  const bigint = db.dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  const calls = await db.all<{ d: number; tool: string; amount: number }>(
    `SELECT updated_at / 86400000 AS d, tool, SUM(CAST(amount AS ${bigint})) AS amount FROM x402_payments
      WHERE status IN ('settled', 'recovered') AND updated_at >= ? AND tool NOT LIKE 'order:%' GROUP BY updated_at / 86400000, tool`,
    [since],
  );
  const out: RevenueDay[] = [
    ...orders.map((r) => ({ day: dayOf(r.d), service: r.service, rail: r.rail, amount: num(r.amount) })),
    ...calls.map((r) => ({ day: dayOf(r.d), service: r.tool, rail: 'x402' as const, amount: num(r.amount) })),
  ];
  return out.filter((r) => r.amount > 0).sort((a, b) => a.day.localeCompare(b.day) || a.service.localeCompare(b.service) || a.rail.localeCompare(b.rail));
}

/** Orders in each state, all time (a small index scan: the states are few). */
export async function ordersByState(db: Db): Promise<{ status: string; count: number }[]> {
  const rows = await db.all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY status');
  return rows.map((r) => ({ status: r.status, count: num(r.n) }));
}

/** Webhook deliveries that failed for good, and jobs that failed, per day they finished. */
export async function failuresPerDay(db: Db, since: number): Promise<FailureDay[]> {
  const hooks = await db.all<{ d: number; n: number }>(
    "SELECT finished_at / 86400000 AS d, COUNT(*) AS n FROM webhook_deliveries WHERE status = 'failed' AND finished_at >= ? GROUP BY finished_at / 86400000",
    [since],
  );
  const jobs = await db.all<{ d: number; n: number }>("SELECT finished_at / 86400000 AS d, COUNT(*) AS n FROM jobs WHERE status = 'failed' AND finished_at >= ? GROUP BY finished_at / 86400000", [
    since,
  ]);
  return [
    ...hooks.map((r) => ({ day: dayOf(r.d), kind: 'webhook' as const, count: num(r.n) })),
    ...jobs.map((r) => ({ day: dayOf(r.d), kind: 'job' as const, count: num(r.n) })),
  ].sort((a, b) => a.day.localeCompare(b.day) || a.kind.localeCompare(b.kind));
}

/** The owners holding the most bytes by the storage budget's counter (migration 044): an agent by handle, an account by id. */
export async function topStorage(db: Db, limit: number): Promise<StorageOwner[]> {
  const rows = await db.all<{ owner_id: string; bytes: number; handle: string | null }>(
    `SELECT s.owner_id, s.bytes, a.handle FROM (SELECT owner_id, bytes FROM storage_usage WHERE bytes > 0 ORDER BY bytes DESC, owner_id LIMIT ?) s
       LEFT JOIN agents a ON a.id = s.owner_id ORDER BY s.bytes DESC, s.owner_id`,
    [limit],
  );
  return rows.map((r) => (r.handle === null ? { owner: r.owner_id, kind: 'account' as const, bytes: num(r.bytes) } : { owner: r.handle, kind: 'agent' as const, bytes: num(r.bytes) }));
}

export interface Overview {
  since: string;
  days: number;
  agents_per_day: DayCount[];
  tool_calls_per_day: ToolDay[];
  revenue_per_day: RevenueDay[];
  orders_by_state: { status: string; count: number }[];
  failures_per_day: FailureDay[];
  top_storage: StorageOwner[];
}

/** Everything the overview shows, for the `days` up to and including today (UTC). */
export async function overview(db: Db, now: number, days: number): Promise<Overview> {
  const sinceDayN = Math.floor(now / DAY_MS) - (days - 1);
  const since = sinceDayN * DAY_MS;
  const sinceDay = dayOf(sinceDayN);
  const [a, t, r, o, f, s] = await Promise.all([agentsPerDay(db, since), topToolCalls(db, sinceDay, 5), revenuePerDay(db, since), ordersByState(db), failuresPerDay(db, since), topStorage(db, 10)]);
  return { since: sinceDay, days, agents_per_day: a, tool_calls_per_day: t, revenue_per_day: r, orders_by_state: o, failures_per_day: f, top_storage: s };
}
