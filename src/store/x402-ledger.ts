// SQL for the x402 payment ledger (migration 004): claim a nonce once, then record each step of settlement.
import type { Db } from './db.js';

export type PaymentStatus = 'verified' | 'settling' | 'settled' | 'failed' | 'released' | 'recovered' | 'abandoned';

export interface PaymentRow {
  id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  pay_to: string;
  amount: string;
  tool: string;
  transport: string;
  x402_version: number;
  valid_before: number;
  status: PaymentStatus;
  tx_hash: string | null;
  error: string | null;
  verify_ms: number | null;
  settle_ms: number | null;
  created_at: number;
  updated_at: number;
}

export interface NewPayment {
  id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  payTo: string;
  amount: string;
  tool: string;
  transport: string;
  x402Version: number;
  validBefore: number;
  now: number;
}

/**
 * Inserts the row in status 'verified' unless the authorization was claimed before; one statement, so of
 * concurrent claims of one nonce exactly one returns true.
 */
export async function claim(db: Db, p: NewPayment): Promise<boolean> {
  const row = await db.get(
    `INSERT INTO x402_payments (id, network, asset, payer, nonce, pay_to, amount, tool, transport, x402_version, valid_before,
       status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'verified', ?, ?)
     ON CONFLICT (network, asset, payer, nonce) DO NOTHING
     RETURNING id`,
    [
      p.id,
      p.network,
      p.asset.toLowerCase(),
      p.payer.toLowerCase(),
      p.nonce.toLowerCase(),
      p.payTo.toLowerCase(),
      p.amount,
      p.tool,
      p.transport,
      p.x402Version,
      p.validBefore,
      p.now,
      p.now,
    ],
  );
  return row !== undefined;
}

/** Moves a row to a new status; `from` guards the transition so a stale writer cannot undo a later one. */
export async function setStatus(
  db: Db,
  id: string,
  from: PaymentStatus[],
  to: PaymentStatus,
  now: number,
  extra: { txHash?: string | null; error?: string | null; verifyMs?: number; settleMs?: number } = {},
): Promise<boolean> {
  const r = await db.run(
    `UPDATE x402_payments SET status = ?, updated_at = ?, tx_hash = COALESCE(?, tx_hash), error = COALESCE(?, error),
       verify_ms = COALESCE(?, verify_ms), settle_ms = COALESCE(?, settle_ms)
     WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
    [to, now, extra.txHash ?? null, extra.error ?? null, extra.verifyMs ?? null, extra.settleMs ?? null, id, ...from],
  );
  return r.changes > 0;
}

/** Removes a claim whose payment then failed verification, so the authorization may be presented again. */
export async function discard(db: Db, id: string): Promise<void> {
  await db.run("DELETE FROM x402_payments WHERE id = ? AND status = 'verified'", [id]);
}

/** Records the settlement transaction as soon as it is broadcast, before waiting for its receipt. */
export async function setTxHash(db: Db, id: string, txHash: string, now: number): Promise<void> {
  await db.run('UPDATE x402_payments SET tx_hash = ?, updated_at = ? WHERE id = ?', [txHash, now, id]);
}

/** Payments of one instant in the order they came: SQLite's rowid, PostgreSQL's identity column. */
const INSERTION_ORDER = { sqlite: 'rowid', postgres: 'seq' };

export const openPayments = (db: Db): Promise<PaymentRow[]> =>
  db.all<PaymentRow>(`SELECT * FROM x402_payments WHERE status IN ('verified', 'settling') ORDER BY created_at, ${INSERTION_ORDER[db.dialect]}`);

export const paymentById = (db: Db, id: string): Promise<PaymentRow | undefined> =>
  db.get<PaymentRow>('SELECT * FROM x402_payments WHERE id = ?', [id]);

export const paymentsByPayer = (db: Db, payer: string): Promise<PaymentRow[]> =>
  db.all<PaymentRow>(`SELECT * FROM x402_payments WHERE payer = ? ORDER BY created_at, ${INSERTION_ORDER[db.dialect]}`, [payer.toLowerCase()]);

/** Order holds (issue 23) are rows whose `tool` is `order:<orderId>`: verified at placement, settled on delivery. */
export const ORDER_HOLD_PREFIX = 'order:';

export const isOrderHold = (row: Pick<PaymentRow, 'tool'>): boolean => row.tool.startsWith(ORDER_HOLD_PREFIX);

/** An order hold still waiting for its delivery: claimed, not settling, and its authorization not expired. */
export const orderHoldWaiting = (row: Pick<PaymentRow, 'tool' | 'status' | 'valid_before'>, nowMs: number): boolean =>
  isOrderHold(row) && row.status === 'verified' && Math.floor(nowMs / 1000) < row.valid_before;

/**
 * An order hold left 'settling' with no transaction this long was interrupted before it signed (signing follows
 * the status change within seconds): its capture may run again.
 */
export const ORDER_SETTLING_STALE_MS = 2 * 60_000;
