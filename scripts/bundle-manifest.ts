// The bundle's manifest.json: bundle/manifest.template.json (server, user_config, texts) completed with the
// package's version, the platform this build covers, and the tools and prompts the staged server itself lists.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from './bundle-run.js';
import { targetLabel, type Coverage, type Target } from './bundle-platforms.js';
import { ENTRY } from './bundle-stage.js';

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
 * Starts the staged server over stdio with the official SDK client, with `node` (one in the bundle's range), on an
 * empty data folder and with none of this shell's credentials, and reads what a host sees by default. A prompt's text is its rendering with each argument
 * set to the manifest's placeholder `${arguments.<name>}`.
 */
export async function listServer(stage: string, node: string): Promise<Listing> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-gateway-bundle-list-'));
  const client = new Client({ name: 'agent-gateway-bundle', version: '1.0.0' });
  try {
    await client.connect(
      new StdioClientTransport({
        command: node,
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

const PLATFORM_NAMES: Record<Target['platform'], string> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

/** The bundle's file name: the platform and processor in it when the bundle is for this machine only. */
export function bundleName(pkg: PackageJson, target: Target, coverage: Coverage): string {
  return `agent-gateway-${pkg.version}${coverage.platforms.length > 1 ? '' : `-${targetLabel(target)}`}.mcpb`;
}

function builtFor(pkg: PackageJson, target: Target, coverage: Coverage): string {
  const node = `Node ${pkg.engines.node} (its SQLite driver needs Node-API 10)`;
  if (coverage.platforms.length > 1) {
    return `This bundle runs on ${coverage.platforms.map((p) => PLATFORM_NAMES[p]).join(', ')} (x64 and arm64) with ${node}: its native parts ship prebuilt for each.`;
  }
  return (
    `This bundle is built for ${targetLabel(target)}${target.libc === 'glibc' ? ' (glibc)' : ''} with ${node}: ${coverage.limits.join('; ')}. ` +
    'Build one for another kind of machine on that machine with `npm run bundle`.'
  );
}

export function composeManifest(pkg: PackageJson, target: Target, coverage: Coverage, listing: Listing): Record<string, unknown> {
  const template = JSON.parse(fs.readFileSync(path.join(ROOT, 'bundle', 'manifest.template.json'), 'utf8')) as Record<string, unknown>;
  return {
    ...template,
    version: pkg.version,
    description: pkg.description,
    long_description: `${String(template.long_description)}\n\n${builtFor(pkg, target, coverage)}`,
    license: pkg.license,
    tools: listing.tools,
    tools_generated: listing.toolsChange,
    prompts: listing.prompts,
    prompts_generated: listing.promptsChange,
    compatibility: { platforms: coverage.platforms, runtimes: { node: pkg.engines.node } },
  };
}
