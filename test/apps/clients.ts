// The official v2 SDK client on every way a host reaches the gateway: Streamable HTTP pinned to 2026-07-28 and
// in legacy (2025) mode, and the built entry over stdio in both eras. A secret makes it an agent's connection.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAIN } from '../helpers/paths.js';
import { MODES, type Mode } from '../verbs/clients.js';
import { storeEnv } from '../helpers/gateway.js';

export const CONNECTIONS = ['http, v2 pinned to 2026-07-28', 'http, v2 legacy', 'stdio, v2 pinned to 2026-07-28', 'stdio, v2 legacy'] as const;
export type Connection = (typeof CONNECTIONS)[number];

const modeOf = (c: Connection): Mode => (c.endsWith('legacy') ? 'v2 legacy' : 'v2 pinned to 2026-07-28');

/** Connects as `secret`'s agent (or anonymously) to the gateway at `url`, or to a stdio process on `dataDir`. */
export async function connect(connection: Connection, gw: { url: string; dataDir: string }, secret?: string): Promise<Client> {
  const client = new Client({ name: 'apps-test', version: '1' }, { versionNegotiation: { mode: MODES[modeOf(connection)] } });
  if (connection.startsWith('http')) {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=all`), secret ? { requestInit: { headers: { authorization: `Bearer ${secret}` } } } : {}),
    );
  } else {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: gw.dataDir, ...storeEnv(gw.dataDir), LOG_LEVEL: 'warn', GATEWAY_MCP_TOOLSETS: 'all', ...(secret ? { AGENT_SECRET: secret } : {}) },
        stderr: 'pipe',
      }),
    );
  }
  return client;
}

/** Puts entries whose facts make a graph (entities shared by two entries, a #topic, tags) into an agent's memory. */
export const GRAPH_ENTRIES: { ns: string; key: string; value: unknown; tags?: string[] }[] = [
  { ns: 'people', key: 'ana', value: 'Ana met Carlos Silva at Acme Corp. #hiring', tags: ['contact'] },
  { ns: 'people', key: 'ben', value: 'Ben works with Carlos Silva on the Lisbon office.', tags: ['contact'] },
  { ns: 'notes', key: 'offsite/plan', value: { agenda: 'Lisbon offsite with Carlos Silva', budget: 1200 } },
];
