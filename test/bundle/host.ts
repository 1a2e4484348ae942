// Starting a bundle's server as an MCPB host does: the host's own resolution of the manifest (the mcpb package's
// getMcpConfigForManifest, the code Claude Desktop uses), then its command on a Node the manifest accepts.
import os from 'node:os';
import path from 'node:path';
import { getMcpConfigForManifest, type McpbManifestAny } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export type UserConfig = Record<string, string>;
export type McpConfig = NonNullable<Awaited<ReturnType<typeof getMcpConfigForManifest>>>;

/** The mcp_config a host would run for these settings, or undefined when it would not start the server. */
export function resolveAsHost(manifest: McpbManifestAny, bundleDir: string, userConfig: UserConfig): Promise<McpConfig | undefined> {
  const home = os.homedir();
  return getMcpConfigForManifest({
    manifest,
    extensionPath: bundleDir,
    systemDirs: { HOME: home, DESKTOP: path.join(home, 'Desktop'), DOCUMENTS: path.join(home, 'Documents'), DOWNLOADS: path.join(home, 'Downloads') },
    userConfig,
    pathSeparator: path.sep,
  });
}

/**
 * Spawns the resolved command over stdio (`node` being the host's Node) and connects the official v1 SDK client.
 * When the server does not start, the error carries what it wrote to stderr (the host's log of it).
 */
export async function connectAsHost(config: McpConfig, node: string): Promise<Client> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: config.command === 'node' ? node : config.command,
    args: config.args ?? [],
    env: config.env ?? {},
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stderrEnded = new Promise((resolve) => transport.stderr?.on('end', resolve));
  const client = new Client({ name: 'bundle-host-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    await stderrEnded; // the server has exited: all it wrote is in
    throw Object.assign(new Error(`server did not start: ${(err as Error).message}\n${stderr}`), { stderr });
  }
  return client;
}
