// Grants what a verified store purchase is worth to an agent, once per purchase (original transaction id):
// credits in one transaction with the redemption marker, or a tier as a new API key of that tier (shown once).
// A replay by the same agent answers with the same grant and never grants again; another agent gets 409.
import { newId } from '../../src/auth/secrets.js';
import { CREDIT_UNIT, creditsToUsd } from '../../src/billing/credits.js';
import type { ProductGrant } from '../../src/billing/entitlements/config.js';
import type { Transaction } from '../../src/billing/entitlements/appstore.js';
import { TIER_QUOTA } from '../../src/billing/tiers.js';
import { GatewayError } from '../../src/errors.js';
import type { AgentRef, ToolContext } from '../../src/registry/types.js';
import { addCredits, balanceOf } from '../../src/store/credits.js';
import * as store from './store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The public form of a grant (never the key itself: that is returned once, by the first redemption). */
export function describeGrant(g: store.GrantRow, now: number) {
  return {
    grant_id: g.id,
    store: g.store,
    product_id: g.product_id,
    original_transaction_id: g.original_transaction_id,
    transaction_id: g.transaction_id,
    environment: g.environment,
    granted_at: iso(g.created_at),
    expires_at: iso(g.expires_at),
    active: g.expires_at === null || g.expires_at > now,
    grant:
      g.kind === 'credits'
        ? { kind: 'credits' as const, credits: g.credits!, usd: creditsToUsd(g.credits!), unit: CREDIT_UNIT }
        : {
            kind: 'tier' as const,
            tier: g.tier!,
            key_hint: g.key_hint,
            monthly_quota: g.tier === 'enterprise' ? null : TIER_QUOTA[g.tier!],
          },
  };
}

const alreadyRedeemed = () =>
  new GatewayError('conflict', 'This purchase was already redeemed by another agent; a purchase grants once.', {
    extra: { reason: 'already_redeemed' },
  });

async function replay(ctx: ToolContext, agent: AgentRef, storeName: string, t: Transaction, expiresAt: number | null) {
  const g = await store.grantByPurchase(ctx.db, storeName, t.originalTransactionId);
  if (!g || g.agent_id !== agent.id) throw alreadyRedeemed();
  const now = ctx.clock.now();
  // A renewal of a subscription shares the original transaction id: note it, grant nothing more.
  if (t.transactionId !== g.transaction_id && (expiresAt ?? 0) >= (g.expires_at ?? 0)) {
    await store.recordRenewal(ctx.db, g.id, t.transactionId, expiresAt, now);
    g.transaction_id = t.transactionId;
    g.expires_at = expiresAt;
  }
  const out = describeGrant(g, now);
  return {
    handle: agent.handle,
    replayed: true,
    ...out,
    ...(g.kind === 'credits' ? { balance: await balanceOf(ctx.db, agent.id) } : { key: null }),
    notice:
      g.kind === 'credits'
        ? 'This purchase was redeemed before; its credits were granted then and are not granted again.'
        : `This purchase was redeemed before; its ${g.tier} API key (${g.key_hint}) was shown once then and is not issued again.`,
  };
}

export async function redeem(
  ctx: ToolContext,
  agent: AgentRef,
  storeName: string,
  t: Transaction,
  granted: { grant: ProductGrant; expiresAt: number | null },
) {
  if (await store.isRedeemed(ctx.db, storeName, t.originalTransactionId)) return replay(ctx, agent, storeName, t, granted.expiresAt);
  const now = ctx.clock.now();
  const row: Omit<store.GrantRow, 'updated_at'> = {
    id: newId('ent'),
    agent_id: agent.id,
    store: storeName,
    original_transaction_id: t.originalTransactionId,
    transaction_id: t.transactionId,
    product_id: t.productId,
    environment: t.environment,
    kind: 'credits' in granted.grant ? 'credits' : 'tier',
    tier: 'tier' in granted.grant ? granted.grant.tier : null,
    credits: 'credits' in granted.grant ? granted.grant.credits : null,
    key_id: null,
    key_hint: null,
    expires_at: granted.expiresAt,
    created_at: now,
  };

  if (row.kind === 'credits') {
    const moved = await ctx.db.transaction(async (tx) => {
      if (!(await store.claimRedemption(tx, storeName, t.originalTransactionId, now))) return null;
      await store.insertGrant(tx, row);
      const m = await addCredits(tx, { agentId: agent.id, kind: 'grant', amount: row.credits!, reason: `${storeName}:${t.productId}`, reference: row.id, now });
      if (!m) throw new GatewayError('conflict', 'This grant would take the credit balance past its maximum; spend some credits first.');
      return m;
    });
    if (!moved) return replay(ctx, agent, storeName, t, granted.expiresAt);
    return {
      handle: agent.handle,
      replayed: false,
      ...describeGrant({ ...row, updated_at: now }, now),
      balance: moved.balance,
      notice: `${row.credits} credits ($${creditsToUsd(row.credits!)}) were added. Paid tools now draw on them when you call with only your Bearer secret.`,
    };
  }

  // A tier: a new API key of that tier for this agent. The key is inserted first (KeyService owns that SQL);
  // if a concurrent request claimed the purchase meanwhile, this key is never shown and so never usable.
  const tier = row.tier!;
  const issued = await ctx.services.keys.issue({
    tier,
    emailHash: ctx.services.clientKey(`entitlement:${storeName}:${t.originalTransactionId}`),
    clientHash: ctx.services.clientKey(ctx.caller.credentials.ip),
    agentId: agent.id,
  });
  row.key_id = issued.id;
  row.key_hint = issued.hint;
  const claimed = await ctx.db.transaction(async (tx) => {
    if (!(await store.claimRedemption(tx, storeName, t.originalTransactionId, now))) return false;
    await store.insertGrant(tx, row);
    return true;
  });
  if (!claimed) return replay(ctx, agent, storeName, t, granted.expiresAt);
  return {
    handle: agent.handle,
    replayed: false,
    ...describeGrant({ ...row, updated_at: now }, now),
    key: issued.key,
    notice: `Store the ${tier} API key now: it is shown only once. Send it as X-API-Key; it belongs to ${agent.handle} and is deleted with it.`,
  };
}
