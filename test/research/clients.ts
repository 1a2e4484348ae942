// The official v2 SDK client over Streamable HTTP for the research tests, in either era (test/verbs/clients.ts's
// MODES), with an API key and/or an agent secret, and an API key issued for the tests.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { api } from '../helpers/gateway.js';
import { MODES, type Mode, type ToolResult } from '../verbs/clients.js';

export interface ResearchClient {
  client: Client;
  call(args: Record<string, unknown>, onprogress?: (p: { progress: number; total?: number; message?: string }) => void): Promise<ToolResult>;
  close(): Promise<void>;
}

export async function researchClient(url: string, mode: Mode, creds: { key?: string; secret?: string } = {}): Promise<ResearchClient> {
  const headers: Record<string, string> = {};
  if (creds.key) headers['x-api-key'] = creds.key;
  if (creds.secret) headers.authorization = `Bearer ${creds.secret}`;
  const client = new Client({ name: 'research-test', version: '1' }, { versionNegotiation: { mode: MODES[mode] } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return {
    client,
    call: async (args, onprogress) => (await client.callTool({ name: 'research', arguments: args }, onprogress ? { onprogress } : undefined)) as ToolResult,
    close: () => client.close(),
  };
}

let emails = 0;

/** A free API key (research allowance: 50 a month). */
export async function freeKey(url: string): Promise<string> {
  const r = await api(url, 'POST', '/keys/issue', { body: { email: `research-${process.pid}-${++emails}@example.com` } });
  if (r.status !== 201) throw new Error(`keys/issue: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.key as string;
}

/** Research units this key has used this month. */
export async function researchUsed(url: string, key: string): Promise<number> {
  const r = await api(url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } });
  if (r.status !== 200) throw new Error(`keys/usage: ${r.status} ${JSON.stringify(r.body)}`);
  return (r.body.per_tool?.research?.used as number | undefined) ?? 0;
}
