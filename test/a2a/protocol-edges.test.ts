// Protocol edges of POST /a2a (issue 20): a request without `id` is answered with `id: null` and the error its
// content deserves (as the @a2a-js/sdk servers answer it), an `id` of a wrong type stays -32600; the extended
// card needs a credential the gateway knows (-32007 without one, -32000 with a wrong one), in both dialects and
// through both official clients.
import { AuthenticatedExtendedCardNotConfiguredError, ClientFactory, JsonRpcTransport } from '@a2a-js/sdk/client';
import { ClientFactory as V1ClientFactory } from 'a2a-sdk-v1/client';
import { ExtendedAgentCardNotConfiguredError, JsonRpcTransportError } from 'a2a-sdk-v1/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { parseSse, rpc, rpcRaw, userText } from './rpc.js';

const V1 = { 'a2a-version': '1.0' };
const skillIds = (card: { skills: { id: string }[] }) => card.skills.map((s) => s.id);

let gw: TestGateway;
let agent: { handle: string; secret: string };
let key: string;
beforeAll(async () => {
  gw = await startGateway();
  agent = await register(gw.url, 'edge-owner');
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'a2a-edges@example.com' } })).body.key;
});
afterAll(async () => gw.cleanup());

/** A JSON-RPC request object with no `id` member at all. */
const noId = (method: string, params?: unknown, headers: Record<string, string> = {}) =>
  rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }), headers);

const expectError = (r: { status: number; body: any }, code: number, id: unknown) => {
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ jsonrpc: '2.0', error: { code, message: expect.any(String) } });
  expect(r.body.id).toEqual(id);
  expect(r.body).not.toHaveProperty('result');
};

describe('a request without id is answered with id null', () => {
  it('a known method runs and answers its result', async () => {
    const r = await noId('agent/getCard');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ jsonrpc: '2.0', id: null, result: (await api(gw.url, 'GET', '/.well-known/agent-card.json')).body });
  });

  it('message/send runs too: the task is stored and can be read back', async () => {
    const r = await noId('message/send', userText('what can you do?'));
    expect(r.body.id).toBeNull();
    expect(r.body.result.status.state).toBe('completed');
    const again = await rpc(gw.url, 'tasks/get', { id: r.body.result.id });
    expect(again.body.result.id).toBe(r.body.result.id);
  });

  it('each error keeps its own code: -32601 unknown method, -32602 bad params, -32001 unknown task', async () => {
    expectError(await noId('tasks/list', {}), -32601, null);
    const wrongDialect = await noId('SendMessage', userText('hi'));
    expectError(wrongDialect, -32601, null);
    expect(wrongDialect.body.error.message).toContain('A2A-Version: 1.0');
    const bad = await noId('message/send', { message: { messageId: 'm', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] } });
    expectError(bad, -32602, null);
    expect(bad.body.error.message).toContain('message.role');
    expectError(await noId('message/send', {}), -32602, null);
    expectError(await noId('tasks/get', { id: 'no-such-task' }), -32001, null);
    expectError(await noId('agent/getCard', {}, { 'a2a-version': '2.0' }), -32009, null);
  });

  it('a stream without id carries id null on every event', async () => {
    const res = await fetch(`${gw.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'message/stream', params: userText('how do I store a secret?') }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text());
    expect(events.map((e) => e.result.kind)).toEqual(['task', 'status-update', 'artifact-update', 'status-update']);
    for (const e of events) expect(e.id).toBeNull();
  });

  it('the same under A2A-Version: 1.0', async () => {
    const sent = await noId('SendMessage', { message: { messageId: 'v1-no-id', role: 'ROLE_USER', parts: [{ text: 'what can you do?' }] } }, V1);
    expect(sent.body.id).toBeNull();
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expectError(await noId('message/send', userText('hi'), V1), -32601, null);
    expectError(await noId('GetTask', {}, V1), -32602, null);
    expectError(await noId('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ nothing: 1 }] } }, V1), -32602, null);
    expectError(await noId('ListTasks', { pageSize: 0 }, V1), -32602, null);
  });

  it('an id of a wrong type is still -32600 with id null, whatever the method', async () => {
    for (const headers of [{}, V1]) {
      for (const id of [{ x: 1 }, [1], true, false, 1.5]) {
        for (const method of ['agent/getCard', 'GetTask', 'no/such/method']) {
          const r = await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }), headers);
          expectError(r, -32600, null);
          expect(r.body.error.message).toContain('id must be');
        }
      }
    }
  });

  it('no id and no jsonrpc "2.0" is still no request: -32600', async () => {
    expectError(await rpcRaw(gw.url, JSON.stringify({ method: 'agent/getCard' })), -32600, null);
    expectError(await rpcRaw(gw.url, JSON.stringify({ jsonrpc: '2.0' })), -32600, null);
  });
});

describe('the extended card needs a known credential (raw JSON-RPC)', () => {
  const methods = [
    { name: 'agent/getAuthenticatedExtendedCard', headers: {} },
    { name: 'GetExtendedAgentCard', headers: V1 },
  ];

  it('without credentials: -32007 naming the schemes to use, never a card', async () => {
    for (const m of methods) {
      const r = await rpc(gw.url, m.name, undefined, m.headers);
      expectError(r, -32007, expect.any(Number));
      expect(r.body.error.data).toEqual({ code: 'unauthorized', status: 401, schemes: ['bearer', 'apiKey'] });
      expect(r.body.error.message).toContain('X-API-Key');
      // An empty key header and a payment header are no credentials for the card either.
      expectError(await rpc(gw.url, m.name, undefined, { ...m.headers, 'x-api-key': '' }), -32007, expect.any(Number));
      expectError(await rpc(gw.url, m.name, undefined, { ...m.headers, 'payment-signature': 'x' }), -32007, expect.any(Number));
      expectError(await noId(m.name, undefined, m.headers), -32007, null);
    }
  });

  it('a wrong agent secret or API key: -32000 forbidden, even beside a valid one', async () => {
    for (const m of methods) {
      const badSecret = await rpc(gw.url, m.name, undefined, { ...m.headers, authorization: 'Bearer ags_not_a_real_secret' });
      expectError(badSecret, -32000, expect.any(Number));
      expect(badSecret.body.error).toMatchObject({ message: 'The agent secret is not valid.', data: { code: 'forbidden', status: 403 } });
      const badKey = await rpc(gw.url, m.name, undefined, { ...m.headers, 'x-api-key': 'agk_live_not_a_real_key' });
      expectError(badKey, -32000, expect.any(Number));
      expect(badKey.body.error).toMatchObject({ message: 'The API key is not valid.', data: { code: 'forbidden', status: 403 } });
      expectError(await rpc(gw.url, m.name, undefined, { ...m.headers, 'x-api-key': 'not-even-shaped-like-a-key' }), -32000, expect.any(Number));
      expectError(await rpc(gw.url, m.name, undefined, { ...m.headers, authorization: `Bearer ${agent.secret}`, 'x-api-key': 'agk_live_nope' }), -32000, expect.any(Number));
      expectError(await rpc(gw.url, m.name, undefined, { ...m.headers, authorization: 'Bearer ags_nope', 'x-api-key': key }), -32000, expect.any(Number));
    }
  });

  it('an agent secret gets the card with its owner-only skills, in both dialects', async () => {
    const v03 = await rpc(gw.url, 'agent/getAuthenticatedExtendedCard', undefined, { authorization: `Bearer ${agent.secret}` });
    expect(v03.body.error).toBeUndefined();
    expect(v03.body.result.description).toContain('@edge-owner');
    expect(skillIds(v03.body.result)).toContain('vault');
    const v1 = await rpc(gw.url, 'GetExtendedAgentCard', undefined, { ...V1, authorization: `Bearer ${agent.secret}` });
    expect(v1.body.result.capabilities).toMatchObject({ extendedAgentCard: true });
    expect(skillIds(v1.body.result)).toContain('vault');
  });

  it('an API key gets the card (no owner-only skills: a key owns nothing)', async () => {
    const pub = (await api(gw.url, 'GET', '/.well-known/agent-card.json')).body;
    const v03 = await rpc(gw.url, 'agent/getAuthenticatedExtendedCard', undefined, { 'x-api-key': key });
    expect(v03.body.result).toEqual(pub);
    const v1 = await rpc(gw.url, 'GetExtendedAgentCard', undefined, { ...V1, 'x-api-key': key });
    expect(skillIds(v1.body.result)).toEqual(skillIds(pub));
    expect(skillIds(v1.body.result)).not.toContain('vault');
  });
});

describe('the extended card through @a2a-js/sdk 0.3 (agent/getAuthenticatedExtendedCard)', () => {
  const transport = () => new JsonRpcTransport({ endpoint: `${gw.url}/a2a` });

  it('without credentials the client gets its typed AuthenticatedExtendedCardNotConfiguredError', async () => {
    await expect(transport().getExtendedAgentCard()).rejects.toBeInstanceOf(AuthenticatedExtendedCardNotConfiguredError);
    // Client.getAgentCard() asks for the extended card whenever the public one offers it.
    const client = await new ClientFactory().createFromUrl(gw.url);
    await expect(client.getAgentCard()).rejects.toBeInstanceOf(AuthenticatedExtendedCardNotConfiguredError);
  });

  it('with an agent secret or an API key it gets the card', async () => {
    const asAgent = await transport().getExtendedAgentCard({ serviceParameters: { authorization: `Bearer ${agent.secret}` } });
    expect(skillIds(asAgent)).toContain('vault');
    const withKey = await transport().getExtendedAgentCard({ serviceParameters: { 'x-api-key': key } });
    expect(withKey.url).toBe(`${gw.url}/a2a`);
    expect(skillIds(withKey)).not.toContain('vault');
    const client = await new ClientFactory().createFromUrl(gw.url);
    expect((await client.getAgentCard({ serviceParameters: { 'x-api-key': key } })).name).toBe('Agent Gateway');
  });

  it('with a wrong credential it gets the -32000 error, not the “not configured” one', async () => {
    const wrong = transport().getExtendedAgentCard({ serviceParameters: { authorization: 'Bearer ags_nope' } });
    await expect(wrong).rejects.toThrow(/The agent secret is not valid\. \(Code: -32000\)/);
    await expect(transport().getExtendedAgentCard({ serviceParameters: { 'x-api-key': 'agk_live_nope' } })).rejects.not.toBeInstanceOf(
      AuthenticatedExtendedCardNotConfiguredError,
    );
  });
});

describe('the extended card through a2a-sdk-v1 (GetExtendedAgentCard, A2A-Version: 1.0)', () => {
  // Client.getAgentCard() asks for the extended card (the card says extendedAgentCard) and adds the version header.
  const v1Client = () => new V1ClientFactory().createFromUrl(gw.url);

  it('the public card tells 1.0 clients there is an extended card', async () => {
    expect((await api(gw.url, 'GET', '/.well-known/agent-card.json')).body.capabilities).toMatchObject({ extendedAgentCard: true });
  });

  it('the client speaks 1.0; without credentials it gets ExtendedAgentCardNotConfiguredError', async () => {
    const client = await v1Client();
    expect(client.protocolVersion).toBe('1.0');
    await expect(client.getAgentCard()).rejects.toBeInstanceOf(ExtendedAgentCardNotConfiguredError);
  });

  it('with an agent secret or an API key it gets the card', async () => {
    const asAgent = await (await v1Client()).getAgentCard({ serviceParameters: { authorization: `Bearer ${agent.secret}` } });
    expect(asAgent.description).toContain('@edge-owner');
    expect(skillIds(asAgent)).toContain('vault');
    const withKey = await (await v1Client()).getAgentCard({ serviceParameters: { 'x-api-key': key } });
    expect(withKey.name).toBe('Agent Gateway');
    expect(skillIds(withKey)).not.toContain('vault');
  });

  it('with a wrong credential it gets a JSON-RPC error with code -32000', async () => {
    const err = await (await v1Client()).getAgentCard({ serviceParameters: { authorization: 'Bearer ags_nope' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonRpcTransportError);
    expect(err).toMatchObject({ envelopeCode: -32000, message: 'The agent secret is not valid.' });
  });
});

describe('data parts that call no tool (issue 41)', () => {
  const message = (parts: unknown[]) => ({ message: { kind: 'message', messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'user', parts } });

  it('are context beside a question, and the question is answered', async () => {
    const r = await rpc(gw.url, 'message/send', message([{ kind: 'text', text: 'how do I store a secret?' }, { kind: 'data', data: { type: 'order', content: { sku: 'A-1', qty: 2 } } }]));
    expect(r.body.result.status.state).toBe('completed');
    expect(r.body.result.status.message.parts[0].text).toMatch(/vault/i);
    // Kept in the task's history as sent.
    expect(r.body.result.history[0].parts[1].data).toEqual({ type: 'order', content: { sku: 'A-1', qty: 2 } });
  });

  it('alone, with no text to ask, are refused with -32602 saying what the agent takes', async () => {
    const r = await rpc(gw.url, 'message/send', message([{ kind: 'data', data: { type: 'order', content: 'x' } }]));
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toMatch(/a text part \(a question, with any data parts as its context\) or data parts \{"tool"/);
    // A part that names a tool must still be a well-formed call.
    const bad = await rpc(gw.url, 'message/send', message([{ kind: 'data', data: { tool: '', arguments: {} } }]));
    expect(bad.body.error.message).toMatch(/message\.parts\.0: a data part that names a tool/);
  });
});
