// research over stdio (the built entry) with the v2 SDK client pinned to 2026-07-28, paying with GATEWAY_API_KEY:
// a key is issued over HTTP on the same data directory first, then the stdio gateway reads loopback sources.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ResearchOutput } from '../../tools/research/index.js';
import { startGateway, tempDir, storeEnv } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';
import { freeKey, researchUsed } from './clients.js';
import { startStack, type Stack } from './servers.js';

let stack: Stack;
let client: Client;
let dataDir: string;
let key: string;

beforeAll(async () => {
  stack = await startStack();
  dataDir = tempDir();
  const http = await startGateway({ dataDir });
  key = await freeKey(http.url);
  await http.stop();
  client = new Client({ name: 'research-stdio', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_API_KEY: key },
      stderr: 'pipe',
    }),
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  await stack?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('researches the urls given over stdio, paid with GATEWAY_API_KEY', async () => {
  const heard: number[] = [];
  const r = (await client.callTool(
    { name: 'research', arguments: { question: 'How often does the tide rise?', urls: [`${stack.url}/tides`, `${stack.url}/private/logbook`] } },
    { onprogress: (p) => heard.push(p.progress) },
  )) as { isError?: boolean; structuredContent?: unknown };
  expect(r.isError).toBeFalsy();
  const out = ResearchOutput.parse(r.structuredContent);
  expect(out.answer).toMatch(/twice a day[^[]*\[1\]/);
  expect(out.sources.map((s) => s.status)).toEqual(['read', 'skipped']);
  expect(out.citations[0]).toMatchObject({ url: `${stack.url}/tides`, source: 1 });
  expect(heard.length).toBeGreaterThan(2);
  const none = (await client.callTool({ name: 'research', arguments: { question: 'How often does the tide rise?' } })) as { isError?: boolean; content: { text?: string }[] };
  expect(none.isError).toBe(true);
  expect(JSON.parse(none.content[0]!.text!).error).toMatchObject({ code: 'validation_error', reason: 'search_not_configured' });
  // The stdio gateway counted one research on the key (read back over HTTP on the same data directory).
  await client.close();
  const http = await startGateway({ dataDir });
  try {
    expect(await researchUsed(http.url, key)).toBe(1);
  } finally {
    await http.stop();
  }
});
