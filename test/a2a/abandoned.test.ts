// Abandoned A2A tasks (issue 42): an unpaid question without credentials stores nothing (the answer is a Message on
// every method and binding); a task left in auth-required ends as failed after GATEWAY_A2A_INTERRUPTED_HOURS and the
// retention then deletes it; the reproduction (500 such tasks backdated 3 days, a restart with
// GATEWAY_RETAIN_A2A_TASKS_DAYS=1) leaves none; sends without credentials are limited per client address, exactly,
// with the rate-limit error on both bindings; and a flood of 10,000 unpaid anonymous sends grows the database by
// less than a few MB, its few stored tasks gone after the expiry. The clock is moved by hand; a sweep is run as the
// retention worker's tick runs it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../../src/retention.js';
import { eventually } from '../helpers/eventually.js';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { openStream, parseSse, rpc, rpcStream, userData, userText, v1Text } from './rpc.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const V1 = { 'a2a-version': '1.0' };
const QUESTION = 'convert 255 to base 2';

const rows = async (gw: TestGateway, where = '1 = 1') => Number((await gw.gateway.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM a2a_tasks WHERE ${where}`))!.n);
const sweepNow = (gw: TestGateway) => sweep(gw.gateway.db, gw.clock.now(), gw.gateway.config);
const background = (text: string) => ({ ...userText(text), configuration: { blocking: false } });

/** A POST to the HTTP+JSON binding. */
async function rest(gw: TestGateway, p: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${gw.url}/a2a${p}`, { method: 'POST', headers: { 'content-type': 'application/a2a+json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** Runs `n` jobs, at most `width` at once. */
async function pool<T>(n: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}

/** Bytes the store holds: the SQLite files in the data directory, or the PostgreSQL database. */
async function storeBytes(gw: TestGateway): Promise<number> {
  const db = gw.gateway.db;
  if (db.dialect === 'postgres') return Number((await db.get<{ n: number }>('SELECT pg_database_size(current_database()) AS n'))!.n);
  return fs
    .readdirSync(gw.dataDir)
    .filter((f) => f.startsWith('gateway.db'))
    .reduce((sum, f) => sum + fs.statSync(path.join(gw.dataDir, f)).size, 0);
}

describe('an unpaid question without credentials', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => gw.cleanup());

  it('is answered with a Message on every method and binding, and stores nothing', async () => {
    const before = await rows(gw);
    const sent = (await rpc(gw.url, 'message/send', userText(QUESTION))).body.result;
    expect(sent).toMatchObject({ kind: 'message', role: 'agent', contextId: expect.any(String) });
    expect(sent.taskId).toBeUndefined();
    expect(sent.parts[0].text).toContain('X-API-Key');
    expect(sent.parts[1].data.answer).toMatchObject({ kind: 'payment_required', tool: 'base_convert' });
    // The client's conversation is kept.
    expect((await rpc(gw.url, 'message/send', userText(QUESTION, { contextId: 'my-thread' }))).body.result.contextId).toBe('my-thread');
    // A data part calling a paid tool, and one needing an agent: the refusal with its details (402 with the x402 challenge, 401).
    const data = (await rpc(gw.url, 'message/send', userData('base_convert', { value: '255', from_base: 10, to_base: 2 }))).body.result;
    expect(data.parts[1].data).toMatchObject({ error: { code: 'payment_required', status: 402 }, payment: { x402Version: 2 } });
    expect((await rpc(gw.url, 'message/send', userData('whoami', {}))).body.result.parts[1].data.error.status).toBe(401);

    const streamed = await rpcStream(gw.url, 'message/stream', userText(QUESTION));
    expect(streamed.map((e) => e.result.kind)).toEqual(['message']);
    const v1 = (await rpc(gw.url, 'SendMessage', v1Text(QUESTION), V1)).body.result;
    expect(v1.task).toBeUndefined();
    expect(v1.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: expect.stringContaining('X-API-Key') }, { data: expect.any(Object) }] });
    const v1Stream = await rpcStream(gw.url, 'SendStreamingMessage', v1Text(QUESTION), V1);
    expect(v1Stream.map((e) => Object.keys(e.result))).toEqual([['message']]);
    const overRest = await rest(gw, '/message:send', v1Text(QUESTION));
    expect(overRest.status).toBe(200);
    expect(Object.keys(overRest.json())).toEqual(['message']);
    const restStream = parseSse((await rest(gw, '/message:stream', v1Text(QUESTION))).text);
    expect(restStream.map((e) => Object.keys(e))).toEqual([['message']]);

    expect(await rows(gw)).toBe(before);
    // A question it can answer still makes a task, as does a send with a key.
    expect((await rpc(gw.url, 'message/send', userText('how do I store a secret?'))).body.result.status.state).toBe('completed');
    expect(await rows(gw)).toBe(before + 1);
  });
});

describe('a large message without credentials', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ env: { GATEWAY_A2A_ANONYMOUS_MAX_MESSAGE_BYTES: '4096' } });
  });
  afterAll(async () => gw.cleanup());

  it('is refused before any work on both bindings, stores nothing, and passes with a key', async () => {
    const big = `what is the word count of ${'lorem ipsum '.repeat(400)}`;
    const before = await rows(gw);
    const refused = await rpc(gw.url, 'message/send', userText(big));
    expect(refused.body.error).toMatchObject({ code: -32602, data: { code: 'payload_too_large', status: 413, limit: 4096 } });
    expect(refused.body.error.message).toMatch(/at most 4096 bytes.*X-API-Key/);
    const overRest = await rest(gw, '/message:send', v1Text(big), V1);
    expect(overRest.status).toBe(400);
    expect(overRest.json().error.status).toBe('INVALID_ARGUMENT');
    expect(await rows(gw)).toBe(before);

    const key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'a2a-big@example.com' } })).body.key;
    const keyed = await rpc(gw.url, 'message/send', userText(big), { 'x-api-key': key });
    expect(keyed.body.result?.kind).toBe('task');
    // A question of ordinary size without credentials still gets its answer.
    expect((await rpc(gw.url, 'message/send', userText('what can you do?'))).body.result.kind).toBe('task');
  });
});

describe('a task left waiting for the client', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ env: { GATEWAY_A2A_INTERRUPTED_HOURS: '2', GATEWAY_RETAIN_A2A_TASKS_DAYS: '7' } });
  });
  afterAll(async () => gw.cleanup());

  it('ends as failed after GATEWAY_A2A_INTERRUPTED_HOURS, tells a listening stream, then goes with the retention', async () => {
    // Anonymous, in the background (the task is answered at once, so it is stored), and an agent without credits.
    const queued = (await rpc(gw.url, 'message/send', background(QUESTION))).body.result;
    await eventually(async () => expect((await rpc(gw.url, 'tasks/get', { id: queued.id })).body.result.status.state).toBe('auth-required'));
    const agent = { authorization: `Bearer ${(await register(gw.url, 'expiry-broke')).secret}` };
    const owned = (await rpc(gw.url, 'message/send', userText(QUESTION), agent)).body.result;
    expect(owned.status.state).toBe('auth-required');
    const listening = await openStream(gw.url, 'tasks/resubscribe', { id: queued.id });
    await eventually(async () => expect(listening.events).toHaveLength(1));

    gw.clock.advance(2 * HOUR - 1);
    expect(await sweepNow(gw)).toEqual({ expired: 0, deleted: {} });
    gw.clock.advance(2);
    expect((await sweepNow(gw)).expired).toBe(2);

    const ended = (await rpc(gw.url, 'tasks/get', { id: queued.id })).body.result;
    expect(ended.status.state).toBe('failed');
    expect(ended.status.message.parts[0].text).toMatch(/^This task waited 2 h for credentials or payment and has expired/);
    expect(ended.status.message.parts[1].data).toEqual({ reason: 'expired', state: 'auth-required', waitedSeconds: 7200 });
    expect(ended.history.at(-1)).toEqual(ended.status.message);
    expect(ended.history.map((m: { role: string }) => m.role)).toEqual(['user', 'agent', 'agent']);
    expect((await rpc(gw.url, 'GetTask', { id: owned.id }, { ...V1, ...agent })).body.result.status.state).toBe('TASK_STATE_FAILED');
    const listed = (await rpc(gw.url, 'ListTasks', { status: 'TASK_STATE_FAILED' }, { ...V1, ...agent })).body.result;
    expect(listed.tasks.map((t: { id: string }) => t.id)).toEqual([owned.id]);
    // Ended: it takes no more messages, and the stream that listened heard the end.
    expect((await rpc(gw.url, 'message/send', userText(QUESTION, { taskId: owned.id }), agent)).body.error.code).toBe(-32004);
    await eventually(async () => expect(listening.ended()).toBe(true));
    expect(listening.events.at(-1).result).toMatchObject({ kind: 'status-update', final: true, status: { state: 'failed' } });

    // The anonymous task goes an hour after it ended (GATEWAY_RETAIN_A2A_ANONYMOUS_HOURS), the agent's after 7 days.
    gw.clock.advance(HOUR);
    expect((await sweepNow(gw)).deleted).toEqual({ a2a_tasks: 1 });
    expect((await rpc(gw.url, 'tasks/get', { id: queued.id })).body.error.code).toBe(-32001);
    gw.clock.advance(7 * DAY - HOUR - 2);
    expect((await sweepNow(gw)).deleted).toEqual({});
    gw.clock.advance(2);
    expect((await sweepNow(gw)).deleted).toEqual({ a2a_tasks: 1 });
    expect((await rpc(gw.url, 'GetTask', { id: owned.id }, { ...V1, ...agent })).body.error.code).toBe(-32001);
  });

  it('the issue’s reproduction: 500 abandoned tasks backdated 3 days are gone after a restart with GATEWAY_RETAIN_A2A_TASKS_DAYS=1', async () => {
    const dataDir = tempDir();
    const first = await startGateway({ dataDir, env: { GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE: '1000' } });
    let second: TestGateway | undefined;
    try {
      await pool(500, 25, async () => expect((await rpc(first.url, 'message/send', background(QUESTION))).body.result.kind).toBe('task'));
      await eventually(async () => expect(await rows(first, "state = 'auth-required'")).toBe(500), 20_000);
      await first.gateway.db.run('UPDATE a2a_tasks SET created_at = created_at - ?, updated_at = updated_at - ?', [3 * DAY, 3 * DAY]);
      await first.stop();
      // The retention worker sweeps at start-up: each ended 3 days less 1 hour ago, past its 1 day.
      second = await startGateway({ dataDir, env: { GATEWAY_RETAIN_A2A_TASKS_DAYS: '1' } });
      await eventually(async () => expect(await rows(second!)).toBe(0), 20_000);
    } finally {
      await first.stop();
      await second?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('sends without credentials, per client address', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startGateway({ env: { GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE: '20' } });
    key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'a2a-limit@example.com' } })).body.key;
  });
  afterAll(async () => gw.cleanup());

  it('pass exactly the limit of 50 at once; the rest get the rate-limit error with the wait, on both bindings', async () => {
    const sends = await Promise.all(Array.from({ length: 50 }, (_, i) => rpc(gw.url, 'message/send', userText(i % 2 ? QUESTION : `how do I store secret number ${i}?`))));
    const answered = sends.filter((s) => s.body.result);
    const refused = sends.filter((s) => s.body.error);
    expect(answered).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const r of refused) {
      expect(r.status).toBe(200);
      expect(r.body.error).toMatchObject({ code: -32000, data: { code: 'rate_limited', status: 429, retryAfter: 60, limit: 20, windowSeconds: 60 } });
    }
    expect(refused[0].body.error.message).toMatch(/20 a minute\. Retry in 60 s.*X-API-Key/);

    // Credentials are not counted: an API key, an agent. A key that is not valid is no credential.
    expect((await rpc(gw.url, 'message/send', userText(QUESTION), { 'x-api-key': key })).body.result.status.state).toBe('completed');
    const agent = await register(gw.url, 'limit-agent');
    expect((await rpc(gw.url, 'message/send', userText('what can you do?'), { authorization: `Bearer ${agent.secret}` })).body.result.status.state).toBe('completed');
    expect((await rpc(gw.url, 'message/send', userText(QUESTION), { 'x-api-key': 'agk_live_not_a_key' })).body.error.data.code).toBe('rate_limited');

    // v1.0 JSON-RPC, streams, and HTTP+JSON (429 RESOURCE_EXHAUSTED with Retry-After).
    expect((await rpc(gw.url, 'SendMessage', v1Text(QUESTION), V1)).body.error.data).toMatchObject({ code: 'rate_limited', status: 429 });
    const streamed = await rpcStream(gw.url, 'message/stream', userText(QUESTION));
    expect(streamed).toHaveLength(1);
    expect(streamed[0].error).toMatchObject({ code: -32000, data: { code: 'rate_limited' } });
    for (const p of ['/message:send', '/message:stream']) {
      const r = await rest(gw, p, v1Text(QUESTION));
      expect(r.status, p).toBe(429);
      expect(r.headers.get('retry-after')).toBe('60');
      expect(r.json().error).toMatchObject({
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'RATE_LIMITED', domain: 'agent-gateway', metadata: { code: 'rate_limited', retryAfter: '60', limit: '20' } },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '60s' },
        ],
      });
    }

    // The window slides: half a minute on, still refused, with the wait left; a minute on, open again.
    gw.clock.advance(30_000);
    expect((await rpc(gw.url, 'message/send', userText(QUESTION))).body.error.data.retryAfter).toBe(30);
    gw.clock.advance(30_000);
    expect((await rpc(gw.url, 'message/send', userText(QUESTION))).body.result.kind).toBe('message');
  });
});

describe('a flood of unpaid anonymous sends', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // Behind a proxy: each send names its client address, so the flood comes from many addresses at once.
    gw = await startGateway({ env: { GATEWAY_TRUST_PROXY: 'true', GATEWAY_A2A_INTERRUPTED_HOURS: '1', GATEWAY_RETAIN_A2A_TASKS_DAYS: '7' } });
  });
  afterAll(async () => gw.cleanup());

  it('10,000 sends grow the database by less than a few MB, and their stored tasks are gone after the expiry', async () => {
    const before = await rows(gw);
    const bytesBefore = await storeBytes(gw);
    const t0 = performance.now();
    // 9,900 sends from 275 addresses (36 each, inside the limit of 60) over every method and binding, 2% of them
    // in the background (answered at once, so stored); then 100 from one address, past its limit.
    const outcomes = await pool(10_000, 64, async (i) => {
      const from = { 'x-forwarded-for': i < 9900 ? `10.42.${i % 275 >> 8}.${i % 275 & 255}` : '10.99.0.1' };
      const kind = i % 50 === 0 ? 'background' : ['send', 'send', 'send', 'data', 'v1', 'rest', 'send', 'stream', 'send', 'data'][i % 10];
      switch (kind) {
        case 'background':
          return (await rpc(gw.url, 'message/send', background(QUESTION), from)).body.result?.kind ?? 'refused';
        case 'data':
          return (await rpc(gw.url, 'message/send', userData('bitwise', { op: 'xor', a: i, b: 7 }), from)).body.result?.kind ?? 'refused';
        case 'v1': {
          const r = (await rpc(gw.url, 'SendMessage', v1Text(QUESTION), { ...V1, ...from })).body;
          return r.result ? Object.keys(r.result)[0] : 'refused';
        }
        case 'rest': {
          const r = await rest(gw, '/message:send', v1Text(QUESTION), from);
          return r.status === 200 ? Object.keys(r.json())[0] : 'refused';
        }
        case 'stream': {
          const events = await rpcStream(gw.url, 'message/stream', userText(QUESTION), from);
          return events.length === 1 && events[0].result ? events[0].result.kind : 'refused';
        }
        default:
          return (await rpc(gw.url, 'message/send', userText(QUESTION), from)).body.result?.kind ?? 'refused';
      }
    });
    const took = performance.now() - t0;
    const counts = outcomes.reduce<Record<string, number>>((c, o) => ((c[o] = (c[o] ?? 0) + 1), c), {});
    // The 200 background sends answered with their task; 60 of the lone address's 100 passed.
    expect(counts).toEqual({ task: 200, message: 9900 - 200 + 60, refused: 40 });
    const stored = (await rows(gw)) - before;
    expect(stored).toBe(200);
    await eventually(async () => expect(await rows(gw, "state = 'auth-required'")).toBe(200));
    const grown = (await storeBytes(gw)) - bytesBefore;
    console.log(`[${gw.gateway.db.dialect}] 10,000 anonymous unpaid sends in ${(took / 1000).toFixed(1)} s: ${JSON.stringify(counts)}; ${stored} tasks stored; store grew ${(grown / 1e6).toFixed(2)} MB`);
    expect(grown).toBeLessThan(4e6);

    // After the expiry (1 h) they are failed; an hour after that (GATEWAY_RETAIN_A2A_ANONYMOUS_HOURS), gone.
    gw.clock.advance(HOUR + 1);
    expect((await sweepNow(gw)).expired).toBe(200);
    gw.clock.advance(HOUR);
    expect((await sweepNow(gw)).deleted).toEqual({ a2a_tasks: 200 });
    expect(await rows(gw)).toBe(before);
  }, 180_000);
});
