import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { scanDatabase } from '../helpers/db-scan.js';
import { ownedDataEnv, populateAgentData } from '../helpers/owned-data.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: ownedDataEnv() });
});
afterAll(async () => gw.cleanup());

describe('DELETE /agents/{handle}', () => {
  it('removes every row of the agent in every table, and the secret stops working', async () => {
    const doomed = await register(gw.url, 'doomed-agent');
    const other = await register(gw.url, 'bystander');
    await populateAgentData(gw.url, doomed, other);
    const id = (await gw.gateway.db.get<{ id: string }>('SELECT id FROM agents WHERE handle = ?', ['doomed-agent']))!.id;
    expect((await scanDatabase(gw.gateway.db, [id])).length).toBeGreaterThan(1);

    const del = await api(gw.url, 'DELETE', '/agents/doomed-agent', { secret: doomed.secret });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, handle: 'doomed-agent' });

    const hits = await scanDatabase(gw.gateway.db, [id, 'doomed-agent']);
    // The invitee's own handle contains the deleted handle as a prefix; it is another agent's data. So is the
    // text of another agent's wall post that mentions @doomed-agent (docs/decisions/social.md).
    const othersText = (h: { table: string; column: string; value: string }) => ['wall_posts', 'wall_fts'].includes(h.table) && h.column === 'text' && h.value.includes('@doomed-agent');
    expect(hits.filter((h) => !h.value.includes('doomed-agent-invitee') && !othersText(h))).toEqual([]);
    expect(hits.filter(othersText).length).toBeGreaterThan(0);
    expect((await api(gw.url, 'GET', '/agents/doomed-agent')).status).toBe(404);
    expect((await api(gw.url, 'GET', '/agents/me', { secret: doomed.secret })).status).toBe(403);
    // Other agents keep their data; the invitee simply has no referrer any more.
    expect((await api(gw.url, 'GET', '/agents/bystander')).status).toBe(200);
    expect((await api(gw.url, 'GET', '/agents/doomed-agent-invitee')).status).toBe(200);
    // The handle is free again.
    expect((await api(gw.url, 'POST', '/agents/register', { body: { handle: 'doomed-agent' } })).status).toBe(201);
  });
});
