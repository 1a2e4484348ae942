// The bundle's manifest.json: bundle/manifest.template.json (server, user_config, texts) completed with the
// package's version, the platform this build covers, and the tools and prompts the staged server itself lists.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from './bundle-run.js';
import { ENTRY } from './bundle-stage.js';

/** The machine a bundle is built on, which is the one it runs on: npm installed its native packages for it. */
export interface Target {
  platform: 'darwin' | 'win32' | 'linux';
  arch: string;
  /** Linux only: which C library the native packages were chosen for. */
  libc?: 'glibc' | 'musl';
}

export function thisTarget(): Target {
  const { platform, arch } = process;
  if (platform !== 'darwin' && platform !== 'win32' && platform !== 'linux') {
    throw new Error(`MCP Bundles cover darwin, win32 and linux; this machine is ${platform}`);
  }
  if (platform !== 'linux') return { platform, arch };
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return { platform, arch, libc: header?.glibcVersionRuntime ? 'glibc' : 'musl' };
}

export const targetLabel = (t: Target): string => `${t.platform}-${t.arch}${t.libc === 'musl' ? '-musl' : ''}`;

export interface ManifestTool {
  name: string;
  description?: string;
}

export interface ManifestPrompt {
  name: string;
  description?: string;
  arguments?: string[];
  text: string;
}

export interface Listing {
  tools: ManifestTool[];
  prompts: ManifestPrompt[];
  /** The server may change its tool list at run time (tools_find adds toolsets), announced with list_changed. */
  toolsChange: boolean;
  promptsChange: boolean;
}

/**
 * Starts the staged server over stdio with the official SDK client, on an empty data folder and with none of this
 * shell's credentials, and reads what a host sees by default. A prompt's text is its rendering with each argument
 * set to the manifest's placeholder `${arguments.<name>}`.
 */
export async function listServer(stage: string): Promise<Listing> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-gateway-bundle-list-'));
  const client = new Client({ name: 'agent-gateway-bundle', version: '1.0.0' });
  try {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(stage, ENTRY), 'mcp'],
        env: { GATEWAY_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stderr: 'inherit',
      }),
    );
    const tools: ManifestTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) })));
      cursor = page.nextCursor;
    } while (cursor);
    const capabilities = client.getServerCapabilities() ?? {};
    const prompts: ManifestPrompt[] = [];
    if (capabilities.prompts) {
      for (const p of (await client.listPrompts()).prompts) {
        const names = (p.arguments ?? []).map((a) => a.name);
        const rendered = await client.getPrompt({ name: p.name, arguments: Object.fromEntries(names.map((n) => [n, `\${arguments.${n}}`])) });
        const text = rendered.messages.flatMap((m) => (m.content.type === 'text' ? [m.content.text] : [])).join('\n\n');
        if (!text) throw new Error(`prompt ${p.name} renders no text`);
        prompts.push({ name: p.name, ...(p.description ? { description: p.description } : {}), ...(names.length ? { arguments: names } : {}), text });
      }
    }
    return { tools, prompts, toolsChange: capabilities.tools?.listChanged === true, promptsChange: capabilities.prompts?.listChanged === true };
  } finally {
    await client.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface PackageJson {
  version: string;
  description: string;
  license: string;
  engines: { node: string };
}

export function readPackage(dir = ROOT): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

export function composeManifest(pkg: PackageJson, target: Target, listing: Listing): Record<string, unknown> {
  const template = JSON.parse(fs.readFileSync(path.join(ROOT, 'bundle', 'manifest.template.json'), 'utf8')) as Record<string, unknown>;
  const built =
    `This bundle is built for ${targetLabel(target)}${target.libc === 'glibc' ? ' (glibc)' : ''} and Node ${pkg.engines.node}: ` +
    'the code-review and image engines are native packages npm installs for one platform and processor, and the ' +
    'SQLite driver needs Node-API 10. Build one for another machine on that machine with `npm run bundle`.';
  return {
    ...template,
    version: pkg.version,
    description: pkg.description,
    long_description: `${String(template.long_description)}\n\n${built}`,
    license: pkg.license,
    tools: listing.tools,
    tools_generated: listing.toolsChange,
    prompts: listing.prompts,
    prompts_generated: listing.promptsChange,
    compatibility: { platforms: [target.platform], runtimes: { node: pkg.engines.node } },
  };
}
