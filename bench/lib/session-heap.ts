// The heap one held MCP session keeps alive, measured in this process: a gateway started here, `n` sessions opened
// and used once, the heap collected before and after (a measure over a child's heap would count garbage too).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Gateway } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';

const ACCEPT = 'application/json, text/event-stream';

export async function sessionHeapBytes(n = 500): Promise<number> {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const collect = () => {
    for (let i = 0; i < 4; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-session-'));
  const gateway = await Gateway.create({ config: loadConfig({ PORT: '0', GATEWAY_API_PORT: '0', GATEWAY_DATA_DIR: dir, GATEWAY_MCP_MAX_SESSIONS: String(n + 50), GATEWAY_SESSIONS_PER_CLIENT: String(n + 50) }), log: createLogger('silent') });
  try {
    const { url } = await gateway.listen();
    const open = async (i: number) => {
      const init = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
      });
      const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await init.text();
      await (await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
      await (await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'base_convert', arguments: { value: String(i), from_base: 10, to_base: 2 } } }) })).text();
    };
    for (let i = 0; i < 20; i++) await open(i); // loads the MCP modules
    const before = collect();
    for (let i = 0; i < n; i++) await open(i);
    return (collect() - before) / n;
  } finally {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
