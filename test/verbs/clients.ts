// MCP clients for the verb tests: the official v2 SDK pinned to 2026-07-28 and in legacy mode over Streamable
// HTTP, and the v2 SDK over stdio (the built entry). Errors come back as isError results with the body in text.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAIN } from '../helpers/paths.js';
import { storeEnv } from '../helpers/gateway.js';

export interface ToolResult {
  isError?: boolean;
  structuredContent?: any;
  content: { type: string; text?: string }[];
}

export interface VerbClient {
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  listTools(): Promise<{ name: string; outputSchema?: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

export const MODES = { 'v2 pinned to 2026-07-28': { pin: '2026-07-28' }, 'v2 legacy': 'legacy' } as const;
export type Mode = keyof typeof MODES;

const wrap = (c: Client): VerbClient => ({
  call: async (name, args) => (await c.callTool({ name, arguments: args })) as ToolResult,
  listTools: async () => (await c.listTools()).tools as { name: string; outputSchema?: Record<string, unknown> }[],
  close: () => c.close(),
});

export async function httpClient(url: string, mode: Mode, secret?: string): Promise<VerbClient> {
  const c = new Client({ name: 'verbs', version: '1' }, { versionNegotiation: { mode: MODES[mode] } });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp?toolsets=all`), secret ? { requestInit: { headers: { authorization: `Bearer ${secret}` } } } : {}));
  return wrap(c);
}

/** The built entry over stdio, opening in `mode`'s era; `env` adds settings (GATEWAY_API_KEY, egress). */
export async function stdioClient(dataDir: string, secret: string, mode: Mode = 'v2 pinned to 2026-07-28', env: Record<string, string> = {}): Promise<VerbClient> {
  const c = new Client({ name: 'verbs', version: '1' }, { versionNegotiation: { mode: MODES[mode] } });
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', AGENT_SECRET: secret, GATEWAY_MCP_TOOLSETS: 'all', ...env },
      stderr: 'pipe',
    }),
  );
  return wrap(c);
}

/** The error body of an isError result: {error: {code, message}, detail?, status}. */
export const errorOf = (r: ToolResult): { error: { code: string; message: string }; detail?: { loc: unknown[]; msg: string; type: string }[]; status: number } => {
  if (!r.isError) throw new Error(`expected an error, got ${JSON.stringify(r.structuredContent)}`);
  return JSON.parse(r.content[0].text!);
};
