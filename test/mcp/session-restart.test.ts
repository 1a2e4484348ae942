// A 2025-era Streamable HTTP session outlives its gateway process (docs/decisions/mcp-sessions-shared.md): the
// session's row is in the data directory's database, so a gateway restarted on the same directory rebuilds it
// when its next request arrives, with its vault_login binding; a DELETEd session stays gone.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';

const dataDir = tempDir();
const running: TestGateway[] = [];
afterAll(async () => {
  for (const g of running) await g.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ping = (url: string, id: string) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

describe('a legacy session across a restart (SQLite)', () => {
  it('keeps serving the session and its vault_login binding after the gateway restarts on the same data directory', async () => {
    const first = await startGateway({ dataDir });
    running.push(first);
    const a = await register(first.url, 'restarter');
    expect((await api(first.url, 'PUT', '/memory/notes/kept', { secret: a.secret, body: { value: 'across restarts' } })).status).toBe(200);
    let base = first.url;
    // The client follows whichever gateway is up (the port changes with the restart).
    const transport = new StreamableHTTPClientTransport(new URL(`${first.url}/mcp`), {
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        url.host = new URL(base).host;
        return fetch(url, init);
      },
    });
    const client = new Client({ name: 'restart', version: '1' });
    await client.connect(transport);
    expect((await client.callTool({ name: 'vault_login', arguments: { handle: 'restarter', secret: a.secret } })).isError).toBeFalsy();
    await first.stop();

    const second = await startGateway({ dataDir });
    running.push(second);
    base = second.url;
    const got = await client.callTool({ name: 'memory_get', arguments: { namespace: 'notes', key: 'kept' } });
    expect(got.isError).toBeFalsy();
    expect(JSON.stringify(got.structuredContent)).toContain('across restarts');
    expect(transport.sessionId).toBeDefined();
    const id = transport.sessionId!;
    expect((await fetch(`${second.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } })).status).toBe(200);
    expect((await ping(second.url, id)).status).toBe(404);
    await client.close().catch(() => undefined);
  });
});
