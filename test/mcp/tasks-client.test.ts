// The Tasks extension with real clients: the v2 SDK client pinned to 2026-07-28 sees the extension in
// server/discover, and ext-tasks' requester session (createTaskSessionFromClient, with the raw 2026-07-28 dispatch
// it asks its host for) calls a job tool, gets a task, persists its reference, and after a gateway restart on the
// same data directory resumes it from that reference and settles it with the job's result. The v2 client (and the
// v1 client on a 2025 session) hears a long call's progress on the request's own stream.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTaskSessionFromClient, resultFromTaskOutcome, type RawClientDispatch, type SerializedTaskReference } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const clientInfo = { name: 'tasks-client-test', version: '1.0.0' };

async function modernClient(url: string, secret: string): Promise<Client> {
  const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  return client;
}

/** The host's raw 2026-07-28 request path that ext-tasks asks for: one POST per request, JSON or SSE back. */
function rawDispatch(url: string, secret: string): RawClientDispatch {
  let id = 1000;
  return async (request, options) => {
    const req = { ...(request as { method: string; params?: Record<string, unknown> }), jsonrpc: '2.0', id: id++ };
    const name = req.method === 'tools/call' ? req.params?.name : req.method.startsWith('tasks/') ? req.params?.taskId : undefined;
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': req.method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      authorization: `Bearer ${secret}`,
    });
    // The session sends its own routing headers for task requests (Mcp-Name = the task id); they replace ours.
    for (const [k, v] of Object.entries(options?.context?.headers ?? {})) headers.set(k, v);
    const r = await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify(req), signal: options?.signal });
    const text = await r.text();
    const messages = (r.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => JSON.parse(l.slice(5)))
      : [JSON.parse(text)];
    const reply = messages.find((m) => m.id === req.id) as { result?: unknown; error?: { code: number; message: string } };
    return reply.error ? { kind: 'error', error: reply.error } : { kind: 'result', result: reply.result as never };
  };
}

const framing = { protocolVersion: MODERN, clientInfo, clientCapabilities: {} };
const ENDPOINT = 'agent-gateway-tasks-test';

describe('ext-tasks requester session against the gateway', () => {
  it('calls job_create, gets a task, and settles it after a gateway restart from its persisted reference', async () => {
    const dataDir = tempDir();
    const clock = new ManualClock();
    const first = await startGateway({ dataDir, clock });
    const { secret } = await register(first.url, 'tasks-client');
    let reference: SerializedTaskReference | undefined;
    {
      const client = await modernClient(first.url, secret);
      expect(client.getServerCapabilities()?.extensions).toMatchObject({ [TASKS]: {} });
      const session = createTaskSessionFromClient(client, { endpointId: ENDPOINT, rawDispatch: rawDispatch(first.url, secret), v2RequestFraming: framing });
      expect(session.capabilities.execution).toBe(true);
      const execution = await session.callTool('job_create', { type: 'delay', seconds: 2 });
      expect(execution.kind).toBe('task');
      if (execution.kind !== 'task') throw new Error('expected a task');
      expect(execution.handle.taskId).toMatch(/^task_/);
      await execution.handoff((ref) => {
        reference = ref;
      });
      const snapshot = await session.task(execution.handle.taskId).snapshot();
      expect(snapshot.status).toBe('working');
      expect(snapshot.suggestedPollIntervalMs).toBe(2000);
      await session.close();
      await client.close();
    }
    await first.stop();

    clock.advance(2_000);
    const second = await startGateway({ dataDir, clock });
    try {
      const client = await modernClient(second.url, secret);
      const session = createTaskSessionFromClient(client, { endpointId: ENDPOINT, rawDispatch: rawDispatch(second.url, secret), v2RequestFraming: framing });
      const resumed = await session.resumeTask(reference!);
      const settling = resumed.settle();
      // The gateway's scheduler runs the due job; the session's next poll finds it ended.
      await second.gateway.registry.services.scheduler.runDue();
      const { outcome } = await settling;
      expect(outcome.status).toBe('completed');
      const result = resultFromTaskOutcome(outcome) as { structuredContent?: Record<string, unknown>; isError?: boolean };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ type: 'delay', status: 'succeeded', result: { waited_seconds: 2 } });
      await session.close();
      await client.close();
    } finally {
      await second.cleanup();
    }
  }, 30_000);
});

describe('the v2 client and a long call', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => gw.cleanup());

  it('hears its progress notifications (onprogress) before the result', async () => {
    const { secret } = await register(gw.url, 'tasks-progress');
    const client = await modernClient(gw.url, secret);
    const heard: { progress: number; total?: number }[] = [];
    const r = await client.callTool(
      { name: 'batch', arguments: { calls: [{ tool: 'uuid', input: {} }, { tool: 'uuid', input: { version: 7 } }] } },
      { onprogress: (p) => heard.push({ progress: p.progress, total: p.total }) },
    );
    expect((r.structuredContent as { succeeded: number }).succeeded).toBe(2);
    expect(heard).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
    await client.close();
  });

  it('a 2025 session (v1 client) hears the same progress on the POST’s stream', async () => {
    const client = new ClientV1({ name: 'v1-progress', version: '1.0.0' });
    await client.connect(new TransportV1(new URL(`${gw.url}/mcp`)));
    const heard: number[] = [];
    const r = await client.callTool({ name: 'batch', arguments: { calls: [{ tool: 'uuid', input: {} }, { tool: 'nope', input: {} }, { tool: 'uuid', input: {} }] } }, undefined, {
      onprogress: (p) => heard.push(p.progress),
    });
    expect((r.structuredContent as { failed: number }).failed).toBe(1);
    expect(heard).toEqual([1, 2, 3]);
    await client.close();
  });

  it('a plain tools/call of a job tool from the SDK client (no tasks declared) is answered synchronously', async () => {
    const client = await modernClient(gw.url, (await register(gw.url, 'tasks-plain')).secret);
    const r = await client.callTool({ name: 'job_create', arguments: { type: 'delay', seconds: 5 } });
    expect(r.structuredContent).toMatchObject({ type: 'delay', status: 'queued' });
    await client.close();
  });
});
