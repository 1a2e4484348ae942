// SQL for agent credits: the balance (one row per agent) and the append-only ledger. A debit is one conditional
// UPDATE ... WHERE balance >= amount, so concurrent spends can never overdraw, across processes too; the
// ledger row is written in the same transaction as the balance change.
import type { Db, Queryable } from './db.js';

export type LedgerKind = 'grant' | 'spend' | 'refund';

/** The largest balance an agent may hold (10^15 credits = US$1,000,000,000); keeps sums exact in JS numbers. */
export const MAX_BALANCE = 1_000_000_000_000_000;

export interface LedgerRow {
  id: number;
  kind: LedgerKind;
  amount: number;
  balance_after: number;
  reason: string;
  reference: string | null;
  created_at: number;
}

export interface Movement {
  ledgerId: number;
  balance: number;
}

async function appendLedger(
  q: Queryable,
  e: { agentId: string; kind: LedgerKind; amount: number; balanceAfter: number; reason: string; reference: string | null; now: number },
): Promise<number> {
  const row = await q.get<{ id: number }>(
    'INSERT INTO credit_ledger (agent_id, kind, amount, balance_after, reason, reference, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
    [e.agentId, e.kind, e.amount, e.balanceAfter, e.reason, e.reference, e.now],
  );
  return row!.id;
}

/**
 * Adds `amount` (> 0) to the balance and records it (a grant or a refund). Returns null when the balance would
 * pass MAX_BALANCE. Run it inside a transaction (`q` = the transaction) so balance and ledger move together.
 */
export async function addCredits(
  q: Queryable,
  o: { agentId: string; kind: 'grant' | 'refund'; amount: number; reason: string; reference: string | null; now: number },
): Promise<Movement | null> {
  const row = await q.get<{ balance: number }>(
    `INSERT INTO credit_balances (agent_id, balance, updated_at) SELECT ?, ?, ? WHERE ? <= ?
     ON CONFLICT (agent_id) DO UPDATE SET balance = credit_balances.balance + excluded.balance, updated_at = excluded.updated_at
     WHERE credit_balances.balance + excluded.balance <= ?
     RETURNING balance`,
    [o.agentId, o.amount, o.now, o.amount, MAX_BALANCE, MAX_BALANCE],
  );
  if (!row) return null;
  const ledgerId = await appendLedger(q, { ...o, balanceAfter: row.balance });
  return { ledgerId, balance: row.balance };
}

/** Takes `amount` (>= 0) off the balance if it covers it, and records the spend; null when it does not. */
export async function spendCredits(
  db: Db,
  o: { agentId: string; amount: number; reason: string; reference: string | null; now: number },
): Promise<Movement | null> {
  return db.transaction(async (tx) => {
    const row = await tx.get<{ balance: number }>(
      'UPDATE credit_balances SET balance = balance - ?, updated_at = ? WHERE agent_id = ? AND balance >= ? RETURNING balance',
      [o.amount, o.now, o.agentId, o.amount],
    );
    if (!row) return null;
    const ledgerId = await appendLedger(tx, { ...o, kind: 'spend', amount: -o.amount, balanceAfter: row.balance });
    return { ledgerId, balance: row.balance };
  });
}

/** Adds credits in a transaction of its own. */
export const grantCredits = (db: Db, o: Omit<Parameters<typeof addCredits>[1], 'kind'> & { kind?: 'grant' | 'refund' }) =>
  db.transaction((tx) => addCredits(tx, { kind: 'grant', ...o }));

export async function balanceOf(q: Queryable, agentId: string): Promise<number> {
  const row = await q.get<{ balance: number }>('SELECT balance FROM credit_balances WHERE agent_id = ?', [agentId]);
  return row?.balance ?? 0;
}

/** Ledger entries of an agent, newest first; `before` is a ledger id to page from. */
export const ledgerOf = (q: Queryable, agentId: string, limit: number, before?: number): Promise<LedgerRow[]> =>
  q.all<LedgerRow>(
    `SELECT id, kind, amount, balance_after, reason, reference, created_at FROM credit_ledger
     WHERE agent_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    [agentId, before ?? Number.MAX_SAFE_INTEGER, limit],
  );
