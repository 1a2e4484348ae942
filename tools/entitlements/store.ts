// SQL for store entitlements: the grant an agent received for a store purchase, and the redemption marker
// that keeps a purchase from being redeemed twice (also after the agent that redeemed it was deleted).
import type { Db, Queryable } from '../../src/store/db.js';

export interface GrantRow {
  id: string;
  agent_id: string;
  store: string;
  original_transaction_id: string;
  transaction_id: string;
  product_id: string;
  environment: string;
  kind: 'tier' | 'credits';
  tier: 'pro' | 'enterprise' | null;
  credits: number | null;
  key_id: string | null;
  key_hint: string | null;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS =
  'id, agent_id, store, original_transaction_id, transaction_id, product_id, environment, kind, tier, credits, key_id, key_hint, expires_at, created_at, updated_at';

/** Claims a purchase; false when it was redeemed before. */
export async function claimRedemption(q: Queryable, store: string, originalTransactionId: string, now: number): Promise<boolean> {
  const r = await q.run(
    'INSERT INTO entitlement_redemptions (store, original_transaction_id, redeemed_at) VALUES (?, ?, ?) ON CONFLICT (store, original_transaction_id) DO NOTHING',
    [store, originalTransactionId, now],
  );
  return r.changes === 1;
}

export const isRedeemed = async (q: Queryable, store: string, originalTransactionId: string): Promise<boolean> =>
  (await q.get('SELECT 1 AS x FROM entitlement_redemptions WHERE store = ? AND original_transaction_id = ?', [store, originalTransactionId])) !== undefined;

export async function insertGrant(q: Queryable, g: Omit<GrantRow, 'updated_at'>): Promise<void> {
  await q.run(
    `INSERT INTO entitlement_grants (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      g.id, g.agent_id, g.store, g.original_transaction_id, g.transaction_id, g.product_id, g.environment, g.kind,
      g.tier, g.credits, g.key_id, g.key_hint, g.expires_at, g.created_at, g.created_at,
    ],
  );
}

export const grantByPurchase = (q: Queryable, store: string, originalTransactionId: string): Promise<GrantRow | undefined> =>
  q.get<GrantRow>(`SELECT ${COLUMNS} FROM entitlement_grants WHERE store = ? AND original_transaction_id = ?`, [store, originalTransactionId]);

/** A renewal of the same purchase: remembers the newest transaction id and expiry. */
export async function recordRenewal(db: Db, id: string, transactionId: string, expiresAt: number | null, now: number): Promise<void> {
  await db.run('UPDATE entitlement_grants SET transaction_id = ?, expires_at = ?, updated_at = ? WHERE id = ?', [transactionId, expiresAt, now, id]);
}

export const grantsOf = (q: Queryable, agentId: string, limit: number): Promise<GrantRow[]> =>
  q.all<GrantRow>(`SELECT ${COLUMNS} FROM entitlement_grants WHERE agent_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, [agentId, limit]);
