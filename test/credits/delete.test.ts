// Deleting an agent removes its credits, ledger and entitlement grants (the shared helper populates them for
// the generic delete test; this checks that it really does, table by table).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { ownedDataEnv, populateAgentData } from '../helpers/owned-data.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: ownedDataEnv() });
});
afterAll(async () => gw.cleanup());

const TABLES = ['credit_balances', 'credit_ledger', 'entitlement_grants'];
const count = async (table: string, agentId: string) =>
  (await gw.gateway.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE agent_id = ?`, [agentId]))!.n;

describe('credits and entitlements go with the agent', () => {
  it('populateAgentData fills every credits table, and a delete empties them', async () => {
    const a = await register(gw.url, 'cr-doomed');
    const other = await register(gw.url, 'cr-bystander');
    await populateAgentData(gw.url, a, other);
    const id = (await gw.gateway.db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', [a.handle]))!.id;
    for (const t of TABLES) expect(await count(t, id), t).toBeGreaterThan(0);
    expect(await count('credit_ledger', id)).toBe(3); // operator grant, entitlement grant, one spend
    expect((await api(gw.url, 'DELETE', `/agents/${a.handle}`, { secret: a.secret })).status).toBe(200);
    for (const t of TABLES) expect(await count(t, id), t).toBe(0);
    // The purchase stays redeemed (the marker holds no agent data).
    expect((await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entitlement_redemptions'))!.n).toBe(1);
  });
});
