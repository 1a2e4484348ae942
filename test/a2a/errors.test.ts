// Every JSON-RPC error of the A2A endpoint, by raw request, each answered with HTTP 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { rpc, rpcRaw, rpcStream, userText } from './rpc.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const expectError = (r: { status: number; body: any }, code: number, id: unknown) => {
  expect(r.status).toBe(200);
  expect(r.body.jsonrpc).toBe('2.0');
  expect(r.body.id).toEqual(id);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe('string');
  expect(r.body.result).toBeUndefined();
};

describe('envelope errors', () => {
  it('malformed JSON → -32700 with id null', async () => {
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "method":', 'not json', '{']) expectError(await rpcRaw(gw.url, body), -32700, null);
  });

  it('a body that is not an object (string, number, null, array, boolean) → -32600', async () => {
    for (const body of ['"message/send"', '42', 'null', '[]', '[{"jsonrpc":"2.0","id":1,"method":"agent/getCard"}]', 'true']) {
      expectError(await rpcRaw(gw.url, body), -32600, null);
    }
  });

  it('an object that is no JSON-RPC 2.0 request → -32600, keeping a readable id', async () => {
    expectError(await rpcRaw(gw.url, JSON.stringify({ id: 7, method: 'agent/getCard' })), -32600, 7);
    expectError(await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'agent/getCard' })), -32600, 7);
    expectError(await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 5 })), -32600, 'a');
    expectError(await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: { x: 1 }, method: 'agent/getCard' })), -32600, null);
    expectError(await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: 'x' })), -32600, 1);
    expectError(await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'agent/getCard' })), -32600, null);
  });

  it('an unknown method → -32601 (prototype names included), with a hint for the other version’s names', async () => {
    for (const m of ['tasks/list', 'message/sendd', 'toString', '__proto__', 'constructor']) expectError(await rpc(gw.url, m, {}), -32601, expect.anything());
    const v1Name = await rpc(gw.url, 'SendMessage', userText('hi'));
    expectError(v1Name, -32601, expect.anything());
    expect(v1Name.body.error.message).toContain('A2A-Version: 1.0');
    const v03Name = await rpc(gw.url, 'message/send', userText('hi'), { 'a2a-version': '1.0' });
    expectError(v03Name, -32601, expect.anything());
  });

  it('an unsupported A2A-Version → -32009', async () => {
    expectError(await rpc(gw.url, 'agent/getCard', {}, { 'a2a-version': '2.0' }), -32009, expect.anything());
  });

  it('a body over the size limit → -32600', async () => {
    const small = await startGateway({ env: { GATEWAY_MAX_BODY_BYTES: '1000' } });
    try {
      expectError(await rpcRaw(small.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: userText('x'.repeat(2000)) })), -32600, null);
    } finally {
      await small.cleanup();
    }
  });
});

describe('parameter and task errors', () => {
  it('bad params → -32602', async () => {
    const bad = [
      {},
      { message: {} },
      { message: { messageId: 'm', role: 'user', parts: [] } },
      { message: { messageId: 'm', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] } },
      { message: { messageId: 'm', role: 'user', parts: [{ kind: 'text' }] } },
      { message: { messageId: 'm', role: 'user', parts: [{ kind: 'data', data: { arguments: {} } }] } },
      { message: { messageId: 'm', role: 'user', parts: [{ kind: 'data', data: { tool: 'uuid', arguments: [1] } }] } },
      { ...userText('hi'), configuration: { historyLength: -1 } },
    ];
    for (const params of bad) expectError(await rpc(gw.url, 'message/send', params), -32602, expect.anything());
    expectError(await rpc(gw.url, 'tasks/get', {}), -32602, expect.anything());
    expectError(await rpc(gw.url, 'tasks/get', { id: 5 }), -32602, expect.anything());
    expectError(await rpc(gw.url, 'tasks/get', { id: 'x', historyLength: 'all' }), -32602, expect.anything());
    expectError(await rpc(gw.url, 'tasks/cancel'), -32602, expect.anything());
  });

  it('unknown task → -32001 for get, cancel, a message to it, and resubscribe', async () => {
    expectError(await rpc(gw.url, 'tasks/get', { id: 'no-such-task' }), -32001, expect.anything());
    expectError(await rpc(gw.url, 'tasks/cancel', { id: 'no-such-task' }), -32001, expect.anything());
    expectError(await rpc(gw.url, 'message/send', userText('hi', { taskId: 'no-such-task' })), -32001, expect.anything());
    const events = await rpcStream(gw.url, 'tasks/resubscribe', { id: 'no-such-task' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ jsonrpc: '2.0', id: 'stream-1', error: { code: -32001 } });
  });

  it('cancel of a terminal task → -32002; a message to it → -32004', async () => {
    const done = await rpc(gw.url, 'message/send', userText('what can you do?'));
    expect(done.body.result.status.state).toBe('completed');
    const id = done.body.result.id;
    expectError(await rpc(gw.url, 'tasks/cancel', { id }), -32002, expect.anything());
    expectError(await rpc(gw.url, 'message/send', userText('more', { taskId: id })), -32004, expect.anything());
  });

  it('file parts → -32005; push notification config → -32003', async () => {
    const file = { message: { messageId: 'f', role: 'user', parts: [{ kind: 'file', file: { uri: 'https://example.com/a.txt' } }] } };
    expectError(await rpc(gw.url, 'message/send', file), -32005, expect.anything());
    expectError(await rpc(gw.url, 'message/send', { ...userText('hi'), configuration: { pushNotificationConfig: { url: 'https://example.com/hook' } } }), -32003, expect.anything());
    for (const m of ['tasks/pushNotificationConfig/set', 'tasks/pushNotificationConfig/get', 'tasks/pushNotificationConfig/list', 'tasks/pushNotificationConfig/delete']) {
      expectError(await rpc(gw.url, m, { id: 'x' }), -32003, expect.anything());
    }
  });

  it('the extended card with a wrong agent secret → -32000; without credentials → -32004', async () => {
    const wrong = await rpc(gw.url, 'agent/getAuthenticatedExtendedCard', undefined, { authorization: 'Bearer ags_wrong' });
    expectError(wrong, -32000, expect.anything());
    expect(wrong.body.error.data).toMatchObject({ code: 'forbidden', status: 403 });
    expectError(await rpc(gw.url, 'agent/getAuthenticatedExtendedCard'), -32004, expect.anything());
  });

  it('stream errors travel as one SSE event carrying the JSON-RPC error', async () => {
    const events = await rpcStream(gw.url, 'message/stream', { message: { messageId: 'm', role: 'user', parts: [] } });
    expect(events).toEqual([{ jsonrpc: '2.0', id: 'stream-1', error: expect.objectContaining({ code: -32602 }) }]);
    expect(await rpcStream(gw.url, 'tasks/resubscribe', {})).toEqual([{ jsonrpc: '2.0', id: 'stream-1', error: expect.objectContaining({ code: -32602 }) }]);
  });
});
