// Rows for the operator console, written straight into the store: revenue accounts and orders on every rail, tool
// usage, failed webhook deliveries and jobs, x402 payments and storage counters, spread over the last `days` days.
// Used by the console tests (small, known values) and by bench/scenarios/console.ts (100,000 calls, 10,000 orders).
import type { Db } from '../../src/store/db.js';
import { insertOrder, type OrderRow } from '../../src/store/orders.js';

export const DAY = 86_400_000;

export async function seedAccount(db: Db, id: string, email: string, balance: number, now: number): Promise<void> {
  await db.run('INSERT INTO revenue_accounts (id, email, name, key_hash, key_hint, client_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, email, email, `hash-${id}`, 'rk_…', 'client', now]);
  await db.run('INSERT INTO account_balances (account_id, balance, updated_at) VALUES (?, ?, ?)', [id, balance, now]);
}

export function order(o: Partial<OrderRow> & Pick<OrderRow, 'id' | 'account_id' | 'service' | 'rail' | 'status' | 'payment_state' | 'created_at'>): OrderRow {
  return {
    price_id: `${o.service}.std`,
    price: 1_000_000,
    charged: null,
    hold_ref: o.id,
    hold_amount: o.price ?? 1_000_000,
    hold_data: null,
    input: '{}',
    result: null,
    usage: null,
    error: null,
    produced_at: null,
    handoff_id: null,
    revisions: 0,
    revision_notes: null,
    webhook_url: null,
    webhook_secret: null,
    updated_at: o.created_at,
    delivered_at: null,
    closed_at: null,
    accept_by: null,
    ...o,
  } as OrderRow;
}

export const orderId = (n: number): string => `ord_${String(n).padStart(16, '0')}`;

/** Bulk rows over `days` days before `now`: `calls` tool calls in all, `orders` orders, and the rest in proportion. */
export async function seedBulk(db: Db, now: number, o: { days: number; calls: number; orders: number }): Promise<void> {
  const tools = ['memory_set', 'memory_get', 'wall_post', 'research', 'browse', 'calc_tax', 'gen_image', 'vault_call'];
  const services = ['copy.ad', 'seo.audit', 'review.code', 'extract.page'];
  const rails = ['credits', 'x402', 'card'] as const;
  await db.transaction(async (tx) => {
    const perCell = Math.max(1, Math.round(o.calls / (o.days * tools.length)));
    for (let d = 0; d < o.days; d++) {
      const day = new Date(now - d * DAY).toISOString().slice(0, 10);
      for (const [i, t] of tools.entries()) {
        await tx.run('INSERT INTO tool_usage (tool, day, calls, errors) VALUES (?, ?, ?, 0) ON CONFLICT (tool, day) DO UPDATE SET calls = excluded.calls', [t, day, perCell + i]);
      }
    }
    await tx.run('INSERT INTO revenue_accounts (id, email, name, key_hash, key_hint, client_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', ['acct_bulk', 'bulk@example.com', 'bulk', 'hash-bulk', 'rk_…', 'c', now]);
    await tx.run('INSERT INTO account_balances (account_id, balance, updated_at) VALUES (?, 0, ?)', ['acct_bulk', now]);
    for (let n = 0; n < o.orders; n++) {
      const at = now - Math.floor((n / o.orders) * o.days * DAY);
      const captured = n % 3 !== 0;
      await insertOrder(
        tx,
        order({
          id: orderId(1_000_000 + n),
          account_id: 'acct_bulk',
          service: services[n % services.length]!,
          rail: rails[n % rails.length]!,
          status: captured ? 'delivered' : n % 2 ? 'failed' : 'placed',
          payment_state: captured ? 'captured' : n % 2 ? 'released' : 'held',
          charged: captured ? 100_000 + (n % 7) * 10_000 : null,
          created_at: at,
          closed_at: captured ? at + 60_000 : null,
        }),
      );
    }
    for (let n = 0; n < Math.ceil(o.orders / 10); n++) {
      const at = now - Math.floor((n / (o.orders / 10)) * o.days * DAY);
      await tx.run("INSERT INTO webhook_deliveries (source, ref, agent_id, url, body, secret, status, created_at, finished_at) VALUES ('job', ?, NULL, 'https://example.com', '{}', 's', ?, ?, ?)", [`job_${n}`, n % 4 ? 'delivered' : 'failed', at, at]);
      await tx.run("INSERT INTO jobs (id, agent_id, type, input, status, created_at, due_at, finished_at) VALUES (?, NULL, 'echo', '{}', ?, ?, ?, ?)", [`job_${n}`, n % 5 ? 'succeeded' : 'failed', at, at, at]);
      await tx.run(
        "INSERT INTO x402_payments (id, network, asset, payer, nonce, pay_to, amount, tool, transport, x402_version, valid_before, status, created_at, updated_at) VALUES (?, 'base-sepolia', '0xasset', ?, ?, '0xpayto', ?, ?, 'rest', 2, 0, 'settled', ?, ?)",
        [`x4_${n}`, `0x${String(n % 50).padStart(40, '0')}`, `0xnonce${n}`, '10000', tools[n % tools.length]!, at, at],
      );
      await tx.run('INSERT INTO storage_usage (owner_id, bytes) VALUES (?, ?) ON CONFLICT (owner_id) DO UPDATE SET bytes = excluded.bytes', [`acct_s${n}`, 1000 + n]);
    }
  });
}
