// The Tasks extension (io.modelcontextprotocol/tasks) on the 2026-07-28 era, over raw HTTP: a tools/call on a job
// tool from a client that declares the extension answers with a task handle, tasks/get follows the durable job to
// its end (across a gateway restart too), tasks/cancel cancels a queued job; the task is its creator's alone; a
// client that does not declare the extension keeps the synchronous answer. Progress notifications of a long call
// ride the request's own (SSE) response stream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CompletedTaskV2Schema, CreateTaskResultV2Schema, GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { MAX_POLL_MS, POLL_MS, TASK_KEEP_MS } from '../../src/mcp/tasks.js';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { modernPost } from '../helpers/modern-mcp.js';

const TASKS = 'io.modelcontextprotocol/tasks';

let gw: TestGateway;
let site: http.Server;
let siteUrl: string;
let alice: { handle: string; secret: string };
let bob: { handle: string; secret: string };

beforeAll(async () => {
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello from the site');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
  alice = await register(gw.url, 'task-alice');
  bob = await register(gw.url, 'task-bob');
});
afterAll(async () => {
  await gw.cleanup();
  await new Promise((r) => site.close(r));
});

interface Rpc {
  status: number;
  contentType: string;
  /** Every JSON-RPC message of the response, in order (one for JSON, several for an SSE stream). */
  messages: any[];
  /** The response to the request (the last message). */
  body: any;
}

/** One 2026-07-28 request (test/helpers/modern-mcp.ts), declaring the Tasks extension unless told not to. */
async function call(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  opts: { secret?: string; tasks?: boolean; meta?: Record<string, unknown>; name?: string } = {},
): Promise<Rpc> {
  const r = await modernPost(url, method, params, {
    capabilities: opts.tasks === false ? {} : { extensions: { [TASKS]: {} } },
    meta: opts.meta,
    name: opts.name,
    headers: opts.secret ? { authorization: `Bearer ${opts.secret}` } : {},
  });
  const contentType = r.headers.get('content-type') ?? '';
  const text = await r.text();
  const messages = contentType.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  return { status: r.status, contentType, messages, body: messages[messages.length - 1] };
}

const startDelay = (seconds: number, opts: { secret?: string; tasks?: boolean; url?: string } = {}) =>
  call(opts.url ?? gw.url, 'tools/call', { name: 'job_create', arguments: { type: 'delay', seconds } }, opts);
const getTask = (taskId: string, opts: { secret?: string; tasks?: boolean; url?: string } = {}) => call(opts.url ?? gw.url, 'tasks/get', { taskId }, opts);
const runDue = (g: TestGateway = gw) => g.gateway.registry.services.scheduler.runDue();

describe('declaring the extension', () => {
  it('server/discover lists io.modelcontextprotocol/tasks among the extensions', async () => {
    const r = await call(gw.url, 'server/discover', {}, { tasks: false });
    expect(r.body.result.capabilities.extensions).toEqual({ [TASKS]: {}, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
  });
});

describe('a job tool called by a client that accepts tasks', () => {
  it('answers with a task handle; tasks/get follows the job until it completes with the job’s outcome', async () => {
    const created = await startDelay(60, { secret: alice.secret });
    expect(created.status).toBe(200);
    const handle = created.body.result;
    expect(CreateTaskResultV2Schema.safeParse(handle).success).toBe(true);
    expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
    expect(handle.taskId).toMatch(/^task_[A-Za-z0-9_-]{22}$/);
    // SDK 2.4 checks every tools/call answer as a tool result and gives it an empty content list.
    expect(handle.content ?? []).toEqual([]);
    // Kept a week past the job's due time; a timer due in a minute suggests waiting that minute.
    expect(handle.ttlMs).toBe(60_000 + TASK_KEEP_MS);
    expect(handle.pollIntervalMs).toBe(60_000);
    expect(handle.statusMessage).toMatch(/^Job job_\S+ \(delay\) is queued, due at /);
    expect(Date.parse(handle.createdAt)).toBe(gw.clock.now());

    const working = (await getTask(handle.taskId, { secret: alice.secret })).body.result;
    expect(GetTaskResultV2Schema.safeParse(working).success).toBe(true);
    expect(working).toMatchObject({ resultType: 'complete', taskId: handle.taskId, status: 'working', ttlMs: handle.ttlMs });

    gw.clock.advance(60_000);
    await runDue();
    const done = (await getTask(handle.taskId, { secret: alice.secret })).body.result;
    expect(CompletedTaskV2Schema.safeParse(done).success).toBe(true);
    expect(done.status).toBe('completed');
    expect(done.pollIntervalMs).toBeUndefined();
    expect(done.result.resultType).toBe('complete');
    expect(done.result.isError).toBeUndefined();
    expect(done.result.structuredContent).toMatchObject({ type: 'delay', status: 'succeeded', result: { waited_seconds: 60 } });
    expect(JSON.parse(done.result.content[0].text)).toEqual(done.result.structuredContent);
    expect(Date.parse(done.lastUpdatedAt)).toBe(gw.clock.now());
    // The task is the job: the same job reads as succeeded over REST.
    const jobId = done.result.structuredContent.job_id;
    expect((await api(gw.url, 'GET', `/jobs/${jobId}`)).body.status).toBe('succeeded');
  });

  it('follows a fetch_bundle job to its artifact', async () => {
    const created = await call(gw.url, 'tools/call', { name: 'job_create', arguments: { type: 'fetch_bundle', urls: [`${siteUrl}/a`, `${siteUrl}/b`] } }, { secret: alice.secret });
    const { taskId, pollIntervalMs } = created.body.result;
    expect(pollIntervalMs).toBe(POLL_MS);
    let task: any;
    for (let i = 0; i < 100; i++) {
      await runDue();
      task = (await getTask(taskId, { secret: alice.secret })).body.result;
      if (task.status !== 'working') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(task.status).toBe('completed');
    expect(task.result.structuredContent).toMatchObject({ type: 'fetch_bundle', status: 'succeeded', result: { succeeded: 2, failed: 0 } });
    expect(task.result.structuredContent.result.artifact.url).toBeTruthy();
  });

  it('a timer due in a day suggests polling no more often than the maximum interval', async () => {
    const handle = (await startDelay(86_400, { secret: alice.secret })).body.result;
    expect(handle.pollIntervalMs).toBe(MAX_POLL_MS);
  });

  it('tasks/cancel cancels the queued job; tasks/get then says cancelled', async () => {
    const handle = (await startDelay(600, { secret: alice.secret })).body.result;
    const ack = await call(gw.url, 'tasks/cancel', { taskId: handle.taskId }, { secret: alice.secret });
    expect(ack.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const task = (await getTask(handle.taskId, { secret: alice.secret })).body.result;
    expect(task).toMatchObject({ status: 'cancelled', taskId: handle.taskId });
    expect(task.result).toBeUndefined();
    // Cancelling again (the job is no longer queued) is still acknowledged: cancellation is cooperative.
    expect((await call(gw.url, 'tasks/cancel', { taskId: handle.taskId }, { secret: alice.secret })).body.result.resultType).toBe('complete');
  });

  it('tasks/update is acknowledged for a known task (no task of ours waits for input) and refused for an unknown one', async () => {
    const handle = (await startDelay(30, { secret: alice.secret })).body.result;
    const inputResponses = { nothing: { action: 'accept', content: { x: 'y' } } };
    expect((await call(gw.url, 'tasks/update', { taskId: handle.taskId, inputResponses }, { secret: alice.secret })).body.result.resultType).toBe('complete');
    expect((await call(gw.url, 'tasks/update', { taskId: 'task_AAAAAAAAAAAAAAAAAAAAAA', inputResponses }, { secret: alice.secret })).body.error.code).toBe(-32602);
  });
});

describe('who may see a task', () => {
  it('another agent, or the same id without credentials, gets “not found”, exactly as for an id that never existed', async () => {
    const handle = (await startDelay(60, { secret: alice.secret })).body.result;
    const unknown = (await getTask('task_AAAAAAAAAAAAAAAAAAAAAA', { secret: bob.secret })).body;
    expect(unknown.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    const asBob = (await getTask(handle.taskId, { secret: bob.secret })).body;
    expect(asBob.result).toBeUndefined();
    expect(asBob.error).toEqual(unknown.error);
    expect((await getTask(handle.taskId)).body.error).toEqual(unknown.error);
    // Nor can another agent cancel it.
    expect((await call(gw.url, 'tasks/cancel', { taskId: handle.taskId }, { secret: bob.secret })).body.error.code).toBe(-32602);
    expect((await getTask(handle.taskId, { secret: alice.secret })).body.result.status).toBe('working');
  });

  it('an anonymous caller’s task is read by its id alone, like the anonymous job under it', async () => {
    const handle = (await startDelay(5)).body.result;
    expect(handle.status).toBe('working');
    expect((await getTask(handle.taskId)).body.result.status).toBe('working');
    expect((await getTask(handle.taskId, { secret: bob.secret })).body.result.status).toBe('working');
  });

  it('answers a malformed or missing task id with -32602, never an internal error', async () => {
    for (const taskId of ['', 'x', 'task_../../etc', 'job_AAAAAAAAAAAAAAAA', 'task_' + 'A'.repeat(500)]) {
      const r = await getTask(taskId, { secret: alice.secret });
      expect(r.body.error?.code, taskId).toBe(-32602);
    }
    const missing = await call(gw.url, 'tasks/get', {}, { secret: alice.secret, name: 'x' });
    expect(missing.body.error?.code).toBe(-32602);
    const wrongType = await call(gw.url, 'tasks/get', { taskId: 42 }, { secret: alice.secret, name: '42' });
    expect(wrongType.body.error?.code).toBe(-32602);
  });

  it('refuses tasks/get from a request that does not declare the extension (-32021)', async () => {
    const handle = (await startDelay(60, { secret: alice.secret })).body.result;
    const r = await getTask(handle.taskId, { secret: alice.secret, tasks: false });
    expect(r.body.error.code).toBe(-32021);
    expect(r.body.error.data.requiredCapabilities).toEqual({ extensions: { [TASKS]: {} } });
  });

  it('checks Mcp-Name against the task id (HeaderMismatch -32020)', async () => {
    const handle = (await startDelay(60, { secret: alice.secret })).body.result;
    const r = await call(gw.url, 'tasks/get', { taskId: handle.taskId }, { secret: alice.secret, name: 'task_other' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32020);
  });
});

describe('a client that does not declare the extension', () => {
  it('gets today’s synchronous answer: the queued job with its poll URL', async () => {
    const r = await startDelay(60, { secret: alice.secret, tasks: false });
    const result = r.body.result;
    expect(result.resultType).toBe('complete');
    expect(result.taskId).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ type: 'delay', status: 'queued' });
    expect(result.structuredContent.poll_url).toContain('/jobs/job_');
  });

  it('and a tool that starts no durable work answers as always, even to a client that accepts tasks', async () => {
    const r = await call(gw.url, 'tools/call', { name: 'uuid', arguments: { version: 7 } }, { secret: alice.secret });
    expect(r.body.result.resultType).toBe('complete');
    expect(r.body.result.taskId).toBeUndefined();
    expect(r.body.result.structuredContent.version).toBe(7);
  });

  it('a job tool refused by validation stays a tool error, with no task', async () => {
    const r = await call(gw.url, 'tools/call', { name: 'job_create', arguments: { type: 'delay' } }, { secret: alice.secret });
    expect(r.body.result).toMatchObject({ resultType: 'complete', isError: true });
    expect(r.body.result.taskId).toBeUndefined();
  });
});

describe('restart', () => {
  it('a task created before a restart is polled to completion after it, on the same data directory', async () => {
    const dataDir = tempDir();
    const clock = new ManualClock();
    const first = await startGateway({ dataDir, clock });
    const owner = await register(first.url, 'task-restart');
    const handle = (await startDelay(120, { secret: owner.secret, url: first.url })).body.result;
    expect(handle.status).toBe('working');
    await first.stop();

    clock.advance(121_000);
    const second = await startGateway({ dataDir, clock });
    try {
      const before = (await getTask(handle.taskId, { secret: owner.secret, url: second.url })).body.result;
      expect(before).toMatchObject({ taskId: handle.taskId, createdAt: handle.createdAt, ttlMs: handle.ttlMs });
      expect(['working', 'completed']).toContain(before.status);
      await runDue(second);
      const done = (await getTask(handle.taskId, { secret: owner.secret, url: second.url })).body.result;
      expect(done.status).toBe('completed');
      expect(done.result.structuredContent).toMatchObject({ status: 'succeeded', result: { waited_seconds: 120 } });
      const stranger = await register(second.url, 'task-stranger');
      expect((await getTask(handle.taskId, { secret: stranger.secret, url: second.url })).body.error.code).toBe(-32602);
    } finally {
      await second.cleanup();
    }
  });

  it('a task past its time to live reads as expired', async () => {
    const handle = (await startDelay(1, { secret: alice.secret })).body.result;
    gw.clock.advance(handle.ttlMs + 1);
    const r = await getTask(handle.taskId, { secret: alice.secret });
    expect(r.body.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task has expired' });
  });
});

describe('progress of a long call', () => {
  it('rides the request’s own stream when the request carries a progressToken: the response upgrades to SSE', async () => {
    const calls = [4, 7, 4].map((version) => ({ tool: 'uuid', input: { version } }));
    const r = await call(gw.url, 'tools/call', { name: 'batch', arguments: { calls } }, { secret: alice.secret, meta: { progressToken: 'p-1' } });
    expect(r.contentType).toContain('text/event-stream');
    const progress = r.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
    expect(progress).toEqual([1, 2, 3].map((n) => ({ progressToken: 'p-1', progress: n, total: 3, message: 'uuid done' })));
    expect(r.messages.indexOf(r.body)).toBe(r.messages.length - 1);
    expect(r.body.result.structuredContent).toMatchObject({ count: 3, succeeded: 3 });
  });

  it('sends none without a progressToken', async () => {
    const r = await call(gw.url, 'tools/call', { name: 'batch', arguments: { calls: [{ tool: 'uuid', input: {} }] } });
    expect(r.messages.filter((m) => m.method === 'notifications/progress')).toEqual([]);
    expect(r.body.result.structuredContent.count).toBe(1);
  });
});
