// browse over stdio (the built entry) with the v2 SDK client pinned to 2026-07-28, anonymous: a page and a
// robots.txt refusal from a loopback site allowed through GATEWAY_EGRESS_ALLOW.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import { api, startGateway, tempDir, storeEnv } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';
import { startSite, type Site } from './site.js';

let site: Site;
let client: Client;
let dataDir: string;

beforeAll(async () => {
  site = await startSite({ bigBytes: 10, slowMs: 10 });
  dataDir = tempDir();
  // browse is paid: a free key issued on the stdio gateway's own data directory pays, as GATEWAY_API_KEY.
  const local = await startGateway({ dataDir });
  const key = (await api(local.url, 'POST', '/keys/issue', { body: { email: 'stdio@example.com' } })).body.key as string;
  await local.stop();
  client = new Client({ name: 'browse-stdio', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_API_KEY: key },
      stderr: 'pipe',
    }),
  );
}, 30_000);

afterAll(async () => {
  await client?.close();
  await site?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('reads a page and refuses a robots.txt-disallowed one over stdio', async () => {
  const ok = (await client.callTool({ name: 'browse', arguments: { url: `${site.url}/redirect` } })) as { isError?: boolean; structuredContent?: any };
  expect(ok.isError).toBeFalsy();
  expect(ok.structuredContent).toMatchObject({ final_url: `${site.url}/article`, lang: 'en-GB', kind: 'html' });
  expect(ok.structuredContent.content).toMatch(/^## Morning$/m);
  const no = (await client.callTool({ name: 'browse', arguments: { url: `${site.url}/private/article` } })) as { isError?: boolean; content: { text?: string }[] };
  expect(no.isError).toBe(true);
  expect(JSON.parse(no.content[0]!.text!).error).toMatchObject({ code: 'forbidden', reason: 'robots_disallowed' });
});
