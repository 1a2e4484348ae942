// A host that pipes its requests into the stdio server and closes stdin right after the last one (a script, `echo |`)
// gets every answer: the server waits for the requests it received before it exits. Before, the process closed at
// stdin's end and dropped the reply to agent_register, whose one-time secret was then lost with the handle taken.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { storeEnv, tempDir } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';

const dataDir = tempDir();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Writes `lines` to a fresh stdio server, ends its stdin at once, and reads everything it prints until it exits. */
function piped(lines: unknown[]): Promise<{ code: number | null; replies: { id?: number; result?: any; error?: any }[] }> {
  const child = spawn(process.execPath, [MAIN, 'mcp'], {
    env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, replies: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: number }) })),
  );
}

describe('MCP over stdio with stdin closed after the last request', () => {
  it('answers every request before it exits, the registration’s secret included', async () => {
    const { code, replies } = await piped([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'agent_register', arguments: { handle: 'piped-agent' } } },
    ]);
    expect(code).toBe(0);
    expect(replies.map((r) => r.id)).toEqual([1, 2, 3]);
    const registered = replies[2].result.structuredContent;
    expect(registered.handle).toBe('piped-agent');
    expect(registered.secret).toMatch(/^ags_/);
  });
});
