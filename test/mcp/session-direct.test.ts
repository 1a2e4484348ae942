// A plain tools/call on a 2025-era session is answered beside SDK v1's Protocol layer (src/mcp/session-direct.ts).
// Its answer must be the SDK's: each request here is sent twice on one session, plainly and with a progress token
// in `_meta` (which the direct path leaves to the SDK; these tools report no progress, so the SDK answers with
// plain JSON too), and the two answers must match in status, headers and JSON-RPC message. A second agent's
// secret reaches nothing of the first's, and vault_login's binding holds on the direct path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainSessionCall } from '../../src/mcp/session-direct.js';
import { expectErrorsAsTheSdk, textOf, type Answer as DirectAnswer } from '../helpers/direct-answers.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let alice: string;
let bob: string;
let session: Record<string, string>;

const ACCEPT = 'application/json, text/event-stream';

beforeAll(async () => {
  gw = await startGateway();
  alice = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'session-alice' } })).body.secret;
  bob = (await api(gw.url, 'POST', '/agents/register', { body: { handle: 'session-bob' } })).body.secret;
  await api(gw.url, 'PUT', '/memory/notes/plan', { secret: alice, body: { value: { step: 2, text: 'alice only' } } });
  const init = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'direct-test', version: '1' } } }),
  });
  await init.text();
  session = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  await (await fetch(`${gw.url}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
});
afterAll(async () => gw.cleanup());

/** An answer on the session: with the session id the response carried. */
interface Answer extends DirectAnswer {
  session: string | null;
}

let nextId = 1;

async function call(name: string, args: unknown, opts: { secret?: string; meta?: Record<string, unknown>; id?: number } = {}): Promise<Answer> {
  const r = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { ...session, ...(opts.secret ? { authorization: `Bearer ${opts.secret}` } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: opts.id ?? nextId++, method: 'tools/call', params: { name, arguments: args, ...(opts.meta ? { _meta: opts.meta } : {}) } }),
  });
  return { status: r.status, type: r.headers.get('content-type'), session: r.headers.get('mcp-session-id'), message: (await r.json()) as Record<string, unknown> };
}

/** The direct answer and the SDK's (a progress token sends it there) to the same call, with the same id. */
async function both(name: string, args: unknown, secret?: string): Promise<[Answer, Answer]> {
  const direct = await call(name, args, { secret, id: 900 });
  const sdk = await call(name, args, { secret, id: 900, meta: { progressToken: 'p' } });
  return [direct, sdk];
}

describe('a plain tools/call on a 2025-era session', () => {
  it('answers a calculator call as the SDK does', async () => {
    const [direct, sdk] = await both('base64', { action: 'encode', text: 'hello' });
    expect(direct).toEqual(sdk);
    expect(direct).toMatchObject({ status: 200, type: 'application/json', session: session['mcp-session-id'] });
    expect(direct.message).toMatchObject({ jsonrpc: '2.0', id: 900, result: { structuredContent: { result: 'aGVsbG8=' } } });
  });

  it("reads as the Bearer's agent, and gives a second agent nothing of the first's", async () => {
    const [own, ownSdk] = await both('memory_get', { namespace: 'notes', key: 'plan' }, alice);
    expect(own).toEqual(ownSdk);
    expect(textOf(own).value).toEqual({ step: 2, text: 'alice only' });
    const [other, otherSdk] = await both('memory_get', { namespace: 'notes', key: 'plan' }, bob);
    expect(other).toEqual(otherSdk);
    expect(JSON.stringify(other.message)).not.toContain('alice only');
    expect(textOf(other).error.code).toBe('not_found');
  });

  it('answers an anonymous owner call, invalid arguments and an unknown tool as the SDK does', async () => {
    await expectErrorsAsTheSdk(both);
  });

  it('keeps the vault_login binding: later plain calls act as the bound agent', async () => {
    const login = await call('vault_login', { handle: 'session-alice', secret: alice });
    expect(login.message.result).toMatchObject({ structuredContent: { handle: 'session-alice', bound: true } });
    expect(JSON.stringify(login.message)).not.toContain(alice);
    const coach = await call('coach', {});
    expect(coach.message.result).toMatchObject({ structuredContent: { handle: 'session-alice' } });
    await call('vault_logout', {});
    expect(textOf(await call('coach', {})).status).toBe(401);
  });

  it('still answers an unknown session with 404', async () => {
    const r = await fetch(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { ...session, 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'base64', arguments: { action: 'encode', text: 'x' } } }),
    });
    expect(r.status).toBe(404);
  });
});

describe('which session messages are plain', () => {
  const call = (over: Record<string, unknown> = {}, params: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'base64', arguments: { action: 'encode', text: 'a' }, ...params },
    ...over,
  });

  it('takes one tools/call request with name, arguments and _meta', () => {
    expect(plainSessionCall(call())).toEqual({ id: 3, name: 'base64', args: { action: 'encode', text: 'a' }, meta: undefined });
    expect(plainSessionCall(call({ id: 'x' }, { _meta: { 'x402/payment': {} } }))).toMatchObject({ id: 'x', meta: { 'x402/payment': {} } });
  });

  it('leaves everything else to the SDK: batches, other methods, odd ids or params, progress, related tasks', () => {
    expect(plainSessionCall([call()])).toBeUndefined();
    expect(plainSessionCall(call({ method: 'tools/list' }))).toBeUndefined();
    expect(plainSessionCall(call({ jsonrpc: '1.0' }))).toBeUndefined();
    expect(plainSessionCall(call({ id: 1.5 }))).toBeUndefined();
    expect(plainSessionCall(call({ id: null }))).toBeUndefined();
    expect(plainSessionCall(call({ extra: 1 }))).toBeUndefined();
    expect(plainSessionCall(call({}, { task: {} }))).toBeUndefined();
    expect(plainSessionCall(call({}, { name: 7 }))).toBeUndefined();
    expect(plainSessionCall(call({}, { arguments: [1] }))).toBeUndefined();
    expect(plainSessionCall(call({}, { _meta: { progressToken: 1 } }))).toBeUndefined();
    expect(plainSessionCall(call({}, { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }))).toBeUndefined();
  });
});
