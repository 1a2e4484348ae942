// Open A2A event streams are bounded (GATEWAY_A2A_MAX_STREAMS): past the bound a message/stream or
// tasks/resubscribe is refused with a JSON-RPC error (HTTP 200, as every A2A error) before any task is made, the
// open streams go on, message/send still answers, and a stream that ends makes room.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { openStream, rpc, rpcRaw, userData, userText } from '../a2a/rpc.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_A2A_MAX_STREAMS: '1' } });
});
afterAll(async () => gw.cleanup());

const runDue = () => gw.gateway.registry.services.scheduler.runDue();
const tasks = async () => Number((await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM a2a_tasks'))!.n);

describe('A2A streams at GATEWAY_A2A_MAX_STREAMS', () => {
  it('refuses a stream past the bound, keeps the open one, and takes a new one once it ends', async () => {
    const open = await openStream(gw.url, 'message/stream', userData('job_create', { type: 'delay', seconds: 60 }));
    await eventually(async () => expect(open.events.length).toBeGreaterThanOrEqual(4));
    const taskId = open.events[0].result.id as string;
    const before = await tasks();

    const refused = await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 'second', method: 'message/stream', params: userText('what is 2 + 2') }));
    expect(refused.status).toBe(200);
    expect(refused.contentType).toMatch(/^application\/json/);
    expect(refused.body).toMatchObject({ id: 'second', error: { code: -32004, data: { reason: 'too_many_streams', limit: 1 } } });
    expect(await tasks()).toBe(before); // refused before a task was made
    expect((await rpc(gw.url, 'tasks/resubscribe', { id: taskId })).body.error.data.reason).toBe('too_many_streams');

    // Without a stream the same question is answered (a paid calculator asks for credentials: an answer, not an error).
    const sent = (await rpc(gw.url, 'message/send', userText('what is 2 + 2'))).body;
    expect(sent.error).toBeUndefined();
    expect(sent.result).toMatchObject({ kind: 'task' });
    expect(open.ended()).toBe(false);

    // The open stream follows its task to the end; then a new stream is taken.
    gw.clock.advance(60_000);
    await runDue();
    await open.done;
    expect(open.events.at(-1).result).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    const next = await openStream(gw.url, 'tasks/resubscribe', { id: taskId });
    await next.done;
    expect(next.events[0].result).toMatchObject({ kind: 'task', id: taskId });
  });
});
