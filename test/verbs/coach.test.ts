// The `coach` verb over MCP: a fresh agent, an agent with unread mail and a queued job, a goal that shifts the
// ranking, isolation between agents, the language model's phrasing, and stdio.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coach } from '../../tools/verbs/coach.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { errorOf, httpClient, MODES, stdioClient, type Mode, type VerbClient } from './clients.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

/** Calls coach after tools/list, so the client checks structuredContent against the published outputSchema. */
async function coachOf(c: VerbClient, args: Record<string, unknown> = {}) {
  const tool = (await c.listTools()).find((t) => t.name === 'coach');
  expect(tool?.outputSchema).toMatchObject({ type: 'object' });
  const r = await c.call('coach', args);
  expect(r.isError).toBeFalsy();
  return coach.output!.parse(r.structuredContent) as { handle: string; actions: { tool: string; arguments: Record<string, unknown>; why: string }[]; text: string; engine: string; state: Record<string, any> };
}

describe.each(Object.keys(MODES) as Mode[])('coach, %s', (mode) => {
  const tag = mode.includes('pinned') ? 'p' : 'l';
  let busy: { handle: string; secret: string };
  let fresh: { handle: string; secret: string };
  let jobId: string;
  beforeAll(async () => {
    busy = await register(gw.url, `busy-${tag}`);
    fresh = await register(gw.url, `fresh-${tag}`);
    const sender = await register(gw.url, `sender-${tag}`);
    expect((await api(gw.url, 'POST', '/mail', { secret: sender.secret, body: { to: busy.handle, body: 'ping' } })).status).toBe(201);
    const job = await api(gw.url, 'POST', '/jobs', { secret: busy.secret, body: { type: 'delay', seconds: 3600 } });
    expect(job.status).toBe(202);
    jobId = job.body.job_id;
  });

  it('tells a fresh agent to start its memory and its streak', async () => {
    const c = await httpClient(gw.url, mode, fresh.secret);
    try {
      const out = await coachOf(c);
      expect(out.handle).toBe(fresh.handle);
      expect(out.engine).toBe('rules');
      expect(out.actions.map((a) => a.tool)).toEqual(['memory', 'beat']);
      expect(out.actions[0].arguments).toMatchObject({ action: 'put', namespace: 'notes', key: 'goal' });
      expect(out.actions[1].arguments).toEqual({ handle: fresh.handle });
      expect(out.state).toMatchObject({ unread_notifications: 0, open_jobs: [], watches: [] });
      expect(out.text).toContain('1. ');
    } finally {
      await c.close();
    }
  });

  it('puts unread notifications, then the open job, first', async () => {
    const c = await httpClient(gw.url, mode, busy.secret);
    try {
      const out = await coachOf(c);
      expect(out.actions.slice(0, 2)).toEqual([
        expect.objectContaining({ tool: 'notifications_list', arguments: { unread_only: true } }),
        expect.objectContaining({ tool: 'job_get', arguments: { job_id: jobId } }),
      ]);
      expect(out.actions).toHaveLength(3);
      // The suggested call works as given.
      const next = await c.call(out.actions[1].tool, out.actions[1].arguments);
      expect(next.structuredContent).toMatchObject({ job_id: jobId });
      // A goal about jobs moves the job ahead.
      const goal = await coachOf(c, { goal: 'finish my fetch jobs' });
      expect(goal.actions[0]).toMatchObject({ tool: 'job_get' });
    } finally {
      await c.close();
    }
  });

  it("reads only the caller's own state", async () => {
    const c = await httpClient(gw.url, mode, fresh.secret);
    try {
      const out = await coachOf(c);
      expect(JSON.stringify(out)).not.toContain(jobId);
      expect(JSON.stringify(out)).not.toContain(busy.handle);
      expect(out.state.unread_notifications).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('is owner-only', async () => {
    const c = await httpClient(gw.url, mode);
    try {
      expect(errorOf(await c.call('coach', {}))).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    } finally {
      await c.close();
    }
  });
});

describe('coach elsewhere', () => {
  it.each(Object.keys(MODES) as Mode[])('answers over stdio (the built entry), %s', async (mode) => {
    const handle = `stdio-coached-${mode.includes('pinned') ? 'p' : 'l'}`;
    const agent = await register(gw.url, handle);
    const c = await stdioClient(gw.dataDir, agent.secret, mode);
    try {
      expect((await coachOf(c)).handle).toBe(handle);
    } finally {
      await c.close();
    }
  });

  it('is phrased by the configured language model, with the same actions', async () => {
    let asked = '';
    const llm = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.url !== '/chat/completions') return void res.writeHead(404).end();
        asked = body;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: 'First, save your goal; then check in.' } }] }));
      });
    });
    await new Promise<void>((ok) => llm.listen(0, '127.0.0.1', ok));
    const withLlm = await startGateway({ env: { LLM_BASE_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}`, LLM_MODEL: 'fake' } });
    try {
      const agent = await register(withLlm.url, 'phrased');
      const c = await httpClient(withLlm.url, 'v2 legacy', agent.secret);
      const out = await coachOf(c, { goal: 'get started' });
      await c.close();
      expect(out).toMatchObject({ engine: 'llm:fake', text: 'First, save your goal; then check in.' });
      expect(out.actions.map((a) => a.tool)).toEqual(['memory', 'beat']);
      expect(asked).toContain('Goal: get started');
    } finally {
      await withLlm.cleanup();
      llm.close();
    }
  });
});
