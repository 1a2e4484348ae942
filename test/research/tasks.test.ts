// research as a task of the MCP Tasks extension: ext-tasks' requester session (the v2 SDK client pinned to
// 2026-07-28, declaring io.modelcontextprotocol/tasks) gets a task for the call, polls it to its end and reads the
// report; the key's research allowance counts a delivered research once and gives back the unit of a failed one.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchOutput } from '../../tools/research/index.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { freeKey, researchUsed } from './clients.js';
import { startStack, type Stack } from './servers.js';

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const clientInfo = { name: 'research-tasks-test', version: '1.0.0' };
const framing = { protocolVersion: MODERN, clientInfo, clientCapabilities: {} };

/** The host's raw 2026-07-28 request path ext-tasks asks for: one POST per request, JSON or SSE back. */
function rawDispatch(url: string, auth: Record<string, string>): RawClientDispatch {
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
      ...auth,
    });
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

let stack: Stack;
let gw: TestGateway;
beforeAll(async () => {
  stack = await startStack();
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_KEYS_PER_CLIENT_PER_DAY: '100' } });
});
afterAll(async () => {
  await gw?.cleanup();
  await stack?.close();
});

async function session(key: string) {
  const auth = { 'x-api-key': key };
  const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: auth } }));
  expect(client.getServerCapabilities()?.extensions).toMatchObject({ [TASKS]: {} });
  const s = createTaskSessionFromClient(client, { endpointId: 'research-tasks', rawDispatch: rawDispatch(gw.url, auth), v2RequestFraming: framing });
  return {
    s,
    close: async () => {
      await s.close();
      await client.close();
    },
  };
}

/** Waits (polling, at most ~10 s) until the key's research count is `n`; returns the last count seen. */
async function usedBecomes(key: string, n: number): Promise<number> {
  let used = await researchUsed(gw.url, key);
  for (let i = 0; i < 100 && used !== n; i++) {
    await new Promise((r) => setTimeout(r, 100));
    used = await researchUsed(gw.url, key);
  }
  return used;
}

describe('research as a task', () => {
  it('answers a task at once, which polls to completion with the report; one unit is used', async () => {
    const key = await freeKey(gw.url);
    const { s, close } = await session(key);
    try {
      const execution = await s.callTool('research', { question: 'When was the lighthouse built?', urls: [`${stack.url}/lighthouse`, `${stack.url}/harbour`] });
      expect(execution.kind).toBe('task');
      if (execution.kind !== 'task') throw new Error('expected a task');
      expect(execution.handle.taskId).toMatch(/^task_/);
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = resultFromTaskOutcome(outcome) as { structuredContent?: Record<string, any>; isError?: boolean };
      expect(result.isError).toBeFalsy();
      // The task ends with what the call itself answers: the research, matching the tool's outputSchema.
      const report = ResearchOutput.parse(result.structuredContent);
      expect(report.job_id).toMatch(/^job_/);
      expect(report.status).toBe('succeeded');
      expect(report.answer).toMatch(/built in 1852[^[]*\[\d+\]/);
      expect(report.citations[0]).toMatchObject({ url: `${stack.url}/lighthouse` });
      const md = await fetch(report.report.url);
      expect(md.status).toBe(200);
      expect(await md.text()).toContain('# Research: When was the lighthouse built?');
      expect(await usedBecomes(key, 1)).toBe(1);
    } finally {
      await close();
    }
  });

  it('a research that fails ends its task with an error result and gives the unit back', async () => {
    const key = await freeKey(gw.url);
    const { s, close } = await session(key);
    try {
      const execution = await s.callTool('research', { question: 'What did the keeper write?', urls: [`${stack.url}/private/logbook`] });
      if (execution.kind !== 'task') throw new Error('expected a task');
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = resultFromTaskOutcome(outcome) as { structuredContent?: Record<string, any>; isError?: boolean };
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        type: 'research',
        status: 'failed',
        error: expect.stringMatching(/None of the 1 sources could be read/),
        result: { error: { code: 'upstream_error', reason: 'no_source_read' }, sources: [expect.objectContaining({ reason: 'robots_disallowed' })] },
      });
      expect(await usedBecomes(key, 0)).toBe(0);
    } finally {
      await close();
    }
  });

  it('bad input is refused at once (422), with no task and no charge', async () => {
    const key = await freeKey(gw.url);
    const { s, close } = await session(key);
    try {
      const execution = await s.callTool('research', { question: 'When?', urls: ['not a url'] });
      expect(execution.kind).toBe('immediate');
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({ status: 422, detail: [expect.objectContaining({ loc: ['urls', 0] })] });
      expect(await researchUsed(gw.url, key)).toBe(0);
    } finally {
      await close();
    }
  });
});
