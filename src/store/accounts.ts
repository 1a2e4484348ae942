// SQL for commercial accounts (issue 23): the account and its revenue key's hash, and the prepaid balance with
// its append-only ledger. A hold is one conditional UPDATE … WHERE balance >= amount, so concurrent orders can
// never overdraw, across processes too; each ledger row is written in the transaction of its balance change.
import type { BatchStatement, Db, Queryable } from './db.js';
import { MAX_BALANCE } from './credits.js';

export interface AccountRow {
  id: string;
  email: string;
  name: string;
  key_hash: string;
  key_hint: string;
  client_hash: string;
  created_at: number;
}

export type AccountLedgerKind = 'credit' | 'hold' | 'release' | 'capture';

export interface AccountLedgerRow {
  id: number;
  kind: AccountLedgerKind;
  amount: number;
  delta: number;
  balance_after: number;
  reason: string;
  reference: string | null;
  created_at: number;
}

export async function insertAccount(q: Queryable, a: AccountRow): Promise<boolean> {
  const row = await q.get<{ id: string }>(
    `INSERT INTO revenue_accounts (id, email, name, key_hash, key_hint, client_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (email) DO NOTHING RETURNING id`,
    [a.id, a.email, a.name, a.key_hash, a.key_hint, a.client_hash, a.created_at],
  );
  if (row) await q.run('INSERT INTO account_balances (account_id, balance, updated_at) VALUES (?, 0, ?)', [a.id, a.created_at]);
  return row !== undefined;
}

export const accountByKeyHash = (q: Queryable, hash: string) => q.get<AccountRow>('SELECT * FROM revenue_accounts WHERE key_hash = ?', [hash]);
export const accountByEmail = (q: Queryable, email: string) => q.get<AccountRow>('SELECT * FROM revenue_accounts WHERE email = ?', [email]);
export const accountById = (q: Queryable, id: string) => q.get<AccountRow>('SELECT * FROM revenue_accounts WHERE id = ?', [id]);

export async function countSignups(q: Queryable, clientHash: string, since: number): Promise<number> {
  const row = await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM revenue_accounts WHERE client_hash = ? AND created_at >= ?', [clientHash, since]);
  return row?.n ?? 0;
}

/** Replaces the account's key (the operator's recovery for a lost key); the old one stops working at once. */
export async function replaceKey(q: Queryable, id: string, hash: string, hint: string): Promise<void> {
  await q.run('UPDATE revenue_accounts SET key_hash = ?, key_hint = ? WHERE id = ?', [hash, hint, id]);
}

async function appendLedger(
  q: Queryable,
  e: { accountId: string; kind: AccountLedgerKind; amount: number; delta: number; balanceAfter: number; reason: string; reference: string | null; now: number },
): Promise<void> {
  await q.run(
    'INSERT INTO account_ledger (account_id, kind, amount, delta, balance_after, reason, reference, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [e.accountId, e.kind, e.amount, e.delta, e.balanceAfter, e.reason, e.reference, e.now],
  );
}

interface Movement {
  accountId: string;
  amount: number;
  reason: string;
  reference: string | null;
  now: number;
}

/** Adds to the balance (an operator credit, or a release): the new balance, or null past MAX_BALANCE. */
export async function addToBalance(q: Queryable, kind: 'credit' | 'release', m: Movement): Promise<number | null> {
  const row = await q.get<{ balance: number }>(
    'UPDATE account_balances SET balance = balance + ?, updated_at = ? WHERE account_id = ? AND balance + ? <= ? RETURNING balance',
    [m.amount, m.now, m.accountId, m.amount, MAX_BALANCE],
  );
  if (!row) return null;
  await appendLedger(q, { ...m, kind, delta: m.amount, balanceAfter: row.balance });
  return row.balance;
}

/**
 * Holds `amount` off the balance, as statements to commit in one batch (with the order they hold for): the first
 * returns no row when the balance does not cover it (the batch then fails with BATCH_NO_ROW at index 0).
 */
export function holdStatements(m: Movement): BatchStatement[] {
  return [
    {
      sql: 'UPDATE account_balances SET balance = balance - ?, updated_at = ? WHERE account_id = ? AND balance >= ? RETURNING balance',
      params: [m.amount, m.now, m.accountId, m.amount],
      expectRow: true,
    },
    {
      sql: `INSERT INTO account_ledger (account_id, kind, amount, delta, balance_after, reason, reference, created_at)
            SELECT account_id, 'hold', ?, ?, balance, ?, ?, ? FROM account_balances WHERE account_id = ?`,
      params: [m.amount, -m.amount, m.reason, m.reference, m.now, m.accountId],
    },
  ];
}

/**
 * Captures `amount` of the hold of order `reference` and gives the rest back, as statements for one batch. Each is
 * guarded on the order having no capture row yet, which the last writes: run again, the batch changes nothing.
 */
export function captureStatements(reference: string, held: number, amount: number, now: number): BatchStatement[] {
  const rest = held - amount;
  const account = "(SELECT account_id FROM account_ledger WHERE reference = ? AND kind = 'hold')";
  const uncaptured = "NOT EXISTS (SELECT 1 FROM account_ledger WHERE reference = ? AND kind = 'capture')";
  return [
    {
      sql: `UPDATE account_balances SET balance = balance + ?, updated_at = ? WHERE ? > 0 AND account_id = ${account} AND ${uncaptured}`,
      params: [rest, now, rest, reference, reference],
    },
    {
      sql: `INSERT INTO account_ledger (account_id, kind, amount, delta, balance_after, reason, reference, created_at)
            SELECT account_id, 'release', ?, ?, balance, 'release:uncaptured', ?, ? FROM account_balances WHERE ? > 0 AND account_id = ${account} AND ${uncaptured}`,
      params: [rest, rest, reference, now, rest, reference, reference],
    },
    {
      sql: `INSERT INTO account_ledger (account_id, kind, amount, delta, balance_after, reason, reference, created_at)
            SELECT account_id, 'capture', ?, 0, balance, 'capture', ?, ? FROM account_balances WHERE account_id = ${account} AND ${uncaptured}`,
      params: [amount, reference, now, reference, reference],
    },
  ];
}

export async function balanceOf(q: Queryable, accountId: string): Promise<number> {
  const row = await q.get<{ balance: number }>('SELECT balance FROM account_balances WHERE account_id = ?', [accountId]);
  return row?.balance ?? 0;
}

export const ledgerOf = (q: Queryable, accountId: string, limit: number) =>
  q.all<AccountLedgerRow>('SELECT id, kind, amount, delta, balance_after, reason, reference, created_at FROM account_ledger WHERE account_id = ? ORDER BY id DESC LIMIT ?', [
    accountId,
    limit,
  ]);

/** Whether a ledger row of `kind` for `reference` exists (a retried capture or release writes nothing twice). */
export async function hasLedgerRow(q: Queryable, kind: AccountLedgerKind, reference: string): Promise<boolean> {
  return (await q.get('SELECT 1 AS x FROM account_ledger WHERE reference = ? AND kind = ?', [reference, kind])) !== undefined;
}



/** Credits the account of `email`: its new balance, null past the maximum, undefined when there is no such account. */
export async function creditAccount(db: Db, o: { email: string; amount: number; reason: string; reference: string | null; now: number }): Promise<number | null | undefined> {
  return db.transaction(async (tx) => {
    const a = await accountByEmail(tx, o.email);
    if (!a) return undefined;
    return addToBalance(tx, 'credit', { accountId: a.id, amount: o.amount, reason: o.reason, reference: o.reference, now: o.now });
  });
}
