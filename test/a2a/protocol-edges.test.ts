// Protocol edges of POST /a2a (issue 20): a request without `id` is answered with `id: null` and the error its
// content deserves (as the @a2a-js/sdk servers answer it), an `id` of a wrong type stays -32600; the extended
// card is offered to a caller that sends a credential and needs one the gateway knows (-32004 without one, -32000
// with a wrong one), in both dialects and through both official clients, whose anonymous getAgentCard() reads the
// public card (issue 41).
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransport, UnsupportedOperationError } from '@a2a-js/sdk/client';
import { Role, TaskState } from 'a2a-sdk-v1';
import {
  createAuthenticatingFetchWithRetry,
  DefaultAgentCardResolver as V1CardResolver,
  JsonRpcTransportFactory,
  ClientFactory as V1ClientFactory,
  ClientFactoryOptions as V1ClientFactoryOptions,
} from 'a2a-sdk-v1/client';
import { JsonRpcTransportError } from 'a2a-sdk-v1/errors';
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

  it('is offered only to a caller that sends a credential, and the card says so in both versions', async () => {
    const anonymous = await fetch(`${gw.url}/.well-known/agent-card.json`);
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=300');
    expect(anonymous.headers.get('vary')).toBe('A2A-Version, Authorization, X-API-Key');
    expect(await anonymous.json()).toMatchObject({ supportsAuthenticatedExtendedCard: false, capabilities: { extendedAgentCard: false } });
    const withKey = await fetch(`${gw.url}/.well-known/agent-card.json`, { headers: { 'x-api-key': key } });
    expect(withKey.headers.get('cache-control')).toBe('private, max-age=300');
    expect(await withKey.json()).toMatchObject({ supportsAuthenticatedExtendedCard: true, capabilities: { extendedAgentCard: true } });
    const v1 = (await api(gw.url, 'GET', '/.well-known/agent-card.json', { headers: { ...V1, authorization: `Bearer ${agent.secret}` } })).body;
    expect(v1.capabilities.extendedAgentCard).toBe(true);
    expect((await rpc(gw.url, 'agent/getCard')).body.result.capabilities.extendedAgentCard).toBe(false);
    expect((await rpc(gw.url, 'agent/getCard', undefined, { 'x-api-key': key })).body.result.capabilities.extendedAgentCard).toBe(true);
  });

  it('without credentials: -32004 (not offered) naming the schemes to use, never a card', async () => {
    for (const m of methods) {
      const r = await rpc(gw.url, m.name, undefined, m.headers);
      expectError(r, -32004, expect.any(Number));
      expect(r.body.error.data).toEqual({ code: 'unauthorized', status: 401, schemes: ['bearer', 'apiKey'] });
      expect(r.body.error.message).toContain('X-API-Key');
      // An empty key header and a payment header are no credentials for the card either.
      expectError(await rpc(gw.url, m.name, undefined, { ...m.headers, 'x-api-key': '' }), -32004, expect.any(Number));
      expectError(await rpc(gw.url, m.name, undefined, { ...m.headers, 'payment-signature': 'x' }), -32004, expect.any(Number));
      expectError(await noId(m.name, undefined, m.headers), -32004, null);
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
    const pub = (await api(gw.url, 'GET', '/.well-known/agent-card.json', { headers: { 'x-api-key': key } })).body;
    const v03 = await rpc(gw.url, 'agent/getAuthenticatedExtendedCard', undefined, { 'x-api-key': key });
    expect(v03.body.result).toEqual(pub);
    const v1 = await rpc(gw.url, 'GetExtendedAgentCard', undefined, { ...V1, 'x-api-key': key });
    expect(skillIds(v1.body.result)).toEqual(skillIds(pub));
    expect(skillIds(v1.body.result)).not.toContain('vault');
  });
});

/** A fetch that sends `headers` with every request, the card's included: how the SDKs authenticate a client. */
const fetchWith = (headers: Record<string, string>): typeof fetch => (input, init) => fetch(input, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } });
const freeCall = { kind: 'data', data: { tool: 'uuid', arguments: { count: 1 } } };

describe('the extended card through @a2a-js/sdk 0.3 (agent/getAuthenticatedExtendedCard)', () => {
  const transport = () => new JsonRpcTransport({ endpoint: `${gw.url}/a2a` });
  const signedIn = (headers: Record<string, string>) =>
    new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchWith(headers) }) })).createFromUrl(gw.url);

  it('an anonymous client discovers the gateway, reads its card and sends a free message', async () => {
    const client = await new ClientFactory().createFromUrl(gw.url);
    const card = await client.getAgentCard();
    expect(card).toMatchObject({ name: 'Agent Gateway', supportsAuthenticatedExtendedCard: false });
    expect(skillIds(card)).not.toContain('vault');
    const task = (await client.sendMessage({ message: { kind: 'message', messageId: 'anon-1', role: 'user', parts: [freeCall] } } as never)) as any;
    expect(task.status.state).toBe('completed');
    // Asked for all the same, the extended card is refused with the typed error of an operation not offered.
    await expect(transport().getExtendedAgentCard()).rejects.toBeInstanceOf(UnsupportedOperationError);
  });

  it('a client that fetches the card with an agent secret or an API key gets the extended card', async () => {
    const asAgent = await (await signedIn({ authorization: `Bearer ${agent.secret}` })).getAgentCard({ serviceParameters: { authorization: `Bearer ${agent.secret}` } });
    expect(asAgent.description).toContain('@edge-owner');
    expect(skillIds(asAgent)).toContain('vault');
    const withKey = await (await signedIn({ 'x-api-key': key })).getAgentCard({ serviceParameters: { 'x-api-key': key } });
    expect(withKey.url).toBe(`${gw.url}/a2a`);
    expect(skillIds(withKey)).not.toContain('vault');
  });

  it('with a wrong credential it gets the -32000 error', async () => {
    const wrong = transport().getExtendedAgentCard({ serviceParameters: { authorization: 'Bearer ags_nope' } });
    await expect(wrong).rejects.toThrow(/The agent secret is not valid\. \(Code: -32000\)/);
    const client = await signedIn({ 'x-api-key': 'agk_live_nope' });
    await expect(client.getAgentCard({ serviceParameters: { 'x-api-key': 'agk_live_nope' } })).rejects.toThrow(/-32000/);
  });
});

describe('the extended card through a2a-sdk-v1 (GetExtendedAgentCard, A2A-Version: 1.0)', () => {
  /** The SDK's own way to authenticate a client: one fetch for the card and the calls. */
  const v1Client = (headers?: Record<string, string>) => {
    if (!headers) return new V1ClientFactory().createFromUrl(gw.url);
    const fetchImpl = createAuthenticatingFetchWithRetry(fetch, { headers: async () => headers, shouldRetryWithHeaders: async () => undefined });
    return new V1ClientFactory(
      V1ClientFactoryOptions.createFrom(V1ClientFactoryOptions.default, { cardResolver: new V1CardResolver({ fetchImpl }), transports: [new JsonRpcTransportFactory({ fetchImpl })] }),
    ).createFromUrl(gw.url);
  };

  it('an anonymous client speaks 1.0, reads the public card and sends a free message', async () => {
    const client = await v1Client();
    expect(client.protocolVersion).toBe('1.0');
    const card = await client.getAgentCard();
    expect(card.capabilities?.extendedAgentCard).toBe(false);
    expect(skillIds(card)).not.toContain('vault');
    const part = { content: { $case: 'data', value: freeCall.data }, metadata: undefined, filename: '', mediaType: '' };
    const task = (await client.sendMessage({ message: { messageId: 'anon-v1', role: Role.ROLE_USER, parts: [part] } } as never)) as any;
    expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('with an agent secret or an API key it gets the extended card', async () => {
    const asAgent = await (await v1Client({ authorization: `Bearer ${agent.secret}` })).getAgentCard();
    expect(asAgent.description).toContain('@edge-owner');
    expect(skillIds(asAgent)).toContain('vault');
    const withKey = await (await v1Client({ 'x-api-key': key })).getAgentCard();
    expect(withKey.name).toBe('Agent Gateway');
    expect(skillIds(withKey)).not.toContain('vault');
  });

  it('with a wrong credential it gets a JSON-RPC error with code -32000', async () => {
    const err = await (await v1Client({ authorization: 'Bearer ags_nope' })).getAgentCard().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonRpcTransportError);
    expect(err).toMatchObject({ envelopeCode: -32000, message: 'The agent secret is not valid.' });
  });
});
