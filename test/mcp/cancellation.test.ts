// Closing the response stream cancels the request, in both eras, and so does a 2025-era cancellation
// notification: the tool's abort signal fires and its work stops. The tool that waits is the test's own, added
// with the Gateway's `additions` seam.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { modernPost } from '../helpers/modern-mcp.js';

const started: string[] = [];
const aborted: string[] = [];

const waitForCancel = defineTool({
  name: 'test_wait_for_cancel',
  toolset: 'test',
  description: 'Waits until its call is cancelled (test fixture).',
  input: z.object({ tag: z.string() }),
  auth: 'public',
  handler: (input, ctx) =>
    new Promise((resolve) => {
      started.push(input.tag);
      ctx.signal?.addEventListener('abort', () => {
        aborted.push(input.tag);
        resolve({ cancelled: true });
      });
    }),
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ additions: { tools: [waitForCancel] } });
});
afterAll(async () => gw.cleanup());

describe('closing the response stream cancels the request', () => {
  it('2026-07-28: the tool sees its signal abort when the client hangs up', async () => {
    const controller = new AbortController();
    const call = modernPost(gw.url, 'tools/call', { name: 'test_wait_for_cancel', arguments: { tag: 'modern' } }, { signal: controller.signal }).catch((err: unknown) => err);
    await eventually(async () => expect(started).toContain('modern'));
    expect(aborted).not.toContain('modern');
    controller.abort();
    await call;
    await eventually(async () => expect(aborted).toContain('modern'));
  });

  it('2025 session: hanging up on the POST cancels that request, and the session keeps working', async () => {
    const client = new Client({ name: 'cancel', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`));
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    const controller = new AbortController();
    const call = fetch(`${gw.url}/mcp`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'raw-1', method: 'tools/call', params: { name: 'test_wait_for_cancel', arguments: { tag: 'legacy' } } }),
    }).catch((err: unknown) => err);
    await eventually(async () => expect(started).toContain('legacy'));
    controller.abort();
    await call;
    await eventually(async () => expect(aborted).toContain('legacy'));
    expect((await client.callTool({ name: 'gateway_info', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });

  it('2025 session: a notifications/cancelled naming the call aborts it (the v1 client cancelling by signal)', async () => {
    const client = new Client({ name: 'cancel-notify', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    const controller = new AbortController();
    const call = client.callTool({ name: 'test_wait_for_cancel', arguments: { tag: 'notified' } }, undefined, { signal: controller.signal }).catch((err: unknown) => err);
    await eventually(async () => expect(started).toContain('notified'));
    expect(aborted).not.toContain('notified');
    controller.abort('changed my mind');
    await call;
    await eventually(async () => expect(aborted).toContain('notified'));
    expect((await client.callTool({ name: 'gateway_info', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });
});
