// GET /usage's read (src/store/orders.ts accountUsage): the totals and one month's use per service in one
// statement, a row per service with the totals repeated, or one row without a service when the month has none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from '../../src/store/accounts.js';
import { accountUsage } from '../../src/store/orders.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';

describe('accountUsage', () => {
  let m: MigratedDb;
  const account = (id: string) => ({ id, email: `${id}@example.com`, name: id, key_hash: `hash-${id}`, key_hint: 'x', client_hash: 'c', created_at: 1 });
  const use = (id: string, month: string, service: string, orders: number, delivered: number, spent: number) =>
    m.db.run('INSERT INTO account_month_usage (account_id, month, service, orders, delivered, spent) VALUES (?, ?, ?, ?, ?, ?)', [id, month, service, orders, delivered, spent]);

  beforeAll(async () => {
    m = await migratedDb();
    for (const id of ['busy', 'idle', 'other']) await insertAccount(m.db, account(id));
    await m.db.run('UPDATE account_balances SET balance = ? WHERE account_id = ?', [7_000_000, 'busy']);
    await m.db.run('INSERT INTO account_stats (account_id, open_orders, held, captured, charges) VALUES (?, ?, ?, ?, ?)', ['busy', 2, 3_000_000, 15_000_000, 4]);
    await use('busy', '2026-11', 'seo.quick', 1, 1, 10_000_000);
    await use('busy', '2026-11', 'copy.ad', 3, 1, 5_000_000);
    await use('busy', '2026-10', 'review', 9, 9, 1);
    await use('other', '2026-11', 'copy.ad', 5, 5, 25_000_000);
  });
  afterAll(async () => m.remove());

  it("gives the totals and the month's services in order, nothing of another month or account", async () => {
    expect(await accountUsage(m.db, 'busy', '2026-11')).toEqual({
      balance: 7_000_000,
      open_orders: 2,
      held: 3_000_000,
      captured: 15_000_000,
      charges: 4,
      services: [
        { service: 'copy.ad', orders: 3, delivered: 1, spent: 5_000_000 },
        { service: 'seo.quick', orders: 1, delivered: 1, spent: 10_000_000 },
      ],
    });
    expect((await accountUsage(m.db, 'busy', '2026-10')).services).toEqual([{ service: 'review', orders: 9, delivered: 9, spent: 1 }]);
    expect(await accountUsage(m.db, 'busy', '2026-12')).toMatchObject({ balance: 7_000_000, charges: 4, services: [] });
  });

  it('gives zeros for an account without orders, and for one it does not know', async () => {
    const none = { balance: 0, open_orders: 0, held: 0, captured: 0, charges: 0, services: [] };
    expect(await accountUsage(m.db, 'idle', '2026-11')).toEqual(none);
    expect(await accountUsage(m.db, 'nobody', '2026-11')).toEqual(none);
  });
});
