// The MCP Bundle (`npm run bundle`, docs/decisions/mcp-bundle.md), built once for this machine, checked as a host
// installs it: the CLI validates its manifest, `mcpb unpack` unpacks it, and its server is started from the manifest's
// own mcp_config as the mcpb package's host code resolves it, then spoken to over stdio by the official v1 SDK client.
// GATEWAY_TEST_BUNDLE=<file.mcpb> checks a bundle built beforehand (say by `npm run bundle`) instead of building one.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { McpbManifestAny } from '@anthropic-ai/mcpb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/gateway.js';
import { ROOT } from '../helpers/paths.js';
import { nodeInRange } from '../../scripts/bundle-node.js';
import { connectAsHost, resolveAsHost, type McpConfig } from './host.js';
import { everyTool } from '../helpers/list-tools.js';

const run = promisify(execFile);

/** Every package in a node_modules tree with the platforms its package.json limits it to, if any. */
function installedPackages(nodeModules: string): Array<{ name: string; os?: string[]; dir: string }> {
  if (!fs.existsSync(nodeModules)) return [];
  return fs.readdirSync(nodeModules).flatMap((entry) => {
    const dir = path.join(nodeModules, entry);
    if (entry.startsWith('@')) return installedPackages(dir);
    const manifestFile = path.join(dir, 'package.json');
    if (entry.startsWith('.') || !fs.existsSync(manifestFile)) return [];
    const { name, os } = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { name: string; os?: string[] };
    return [{ name, os, dir }, ...installedPackages(path.join(dir, 'node_modules'))];
  });
}

/** Native addons of a package that are not prebuilt ones (compiled on the machine that installed it). */
const addonsBuiltHere = (dir: string): string[] =>
  (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.node') && !f.split(path.sep).includes('prebuilds') && !f.includes('node_modules'));
const MCPB = path.join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; engines: { node: string } };
/** The host's Node stands in for Claude Desktop's own; the manifest says which it accepts. */
const node = nodeInRange(pkg.engines.node);

const scratch = tempDir('bundle-test-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** `npm run bundle` with the checkout's installed production dependencies (the clean install takes minutes). */
async function buildBundle(): Promise<string> {
  const out = path.join(scratch, 'out');
  const args = [TSX, path.join('scripts', 'bundle.ts'), '--deps', 'checkout', '--no-build', '--out', out];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { bundle: string }).bundle;
}

const title = node
  ? 'the MCP Bundle, unpacked and started as an MCPB host does'
  : `the MCP Bundle (skipped: no Node ${pkg.engines.node} on this machine to stand for the host's; scripts/node-from-registry.sh 24 unpacks one)`;

describe.skipIf(!node)(title, () => {
  let bundleFile: string;
  let bundleDir: string;
  let manifest: McpbManifestAny;
  const dataDir = path.join(scratch, 'data');
  const credentials = { secret: '', key: '' };

  beforeAll(async () => {
    bundleFile = process.env.GATEWAY_TEST_BUNDLE ? path.resolve(process.env.GATEWAY_TEST_BUNDLE) : await buildBundle();
    bundleDir = path.join(scratch, 'installed');
    await run(process.execPath, [MCPB, 'unpack', bundleFile, bundleDir], { maxBuffer: 64 * 1024 * 1024 });
    manifest = JSON.parse(fs.readFileSync(path.join(bundleDir, 'manifest.json'), 'utf8')) as McpbManifestAny;
    // A bound on a stuck build, not a timing assertion.
  }, 600_000);

  async function start(userConfig: Record<string, string>) {
    const config = await resolveAsHost(manifest, bundleDir, userConfig);
    expect(config).toBeDefined();
    return connectAsHost(config!, node!);
  }

  it('passes the CLI validation, says what it covers and runs, and is named for it', async () => {
    const { stdout } = await run(process.execPath, [MCPB, 'validate', path.join(bundleDir, 'manifest.json')]);
    expect(stdout).toContain('Manifest schema validation passes!');
    expect(manifest).toMatchObject({
      manifest_version: '0.3',
      name: 'agent-gateway',
      version: pkg.version,
      compatibility: { runtimes: { node: pkg.engines.node } },
      server: {
        type: 'node',
        entry_point: 'dist/src/main.js',
        mcp_config: {
          command: 'node',
          args: ['${__dirname}/dist/src/main.js', 'mcp'],
          env: { GATEWAY_DATA_DIR: '${user_config.data_dir}', AGENT_SECRET: '${user_config.agent_secret}', GATEWAY_API_KEY: '${user_config.api_key}' },
        },
      },
      user_config: {
        data_dir: { type: 'directory', required: true },
        agent_secret: { type: 'string', sensitive: true, required: false },
        api_key: { type: 'string', sensitive: true, required: false },
      },
    });
    expect(fs.existsSync(path.join(bundleDir, manifest.server.entry_point))).toBe(true);
    // One platform (this one, named in the file) or several, each backed by every package npm put in the bundle.
    const platforms = manifest.compatibility!.platforms!;
    expect(platforms).toContain(process.platform);
    const suffix = platforms.length === 1 ? `-${process.platform}-${process.arch}(-musl)?` : '';
    expect(path.basename(bundleFile)).toMatch(new RegExp(`^agent-gateway-${pkg.version.replace(/\./g, '\\.')}${suffix}\\.mcpb$`));
    for (const { name, os, dir } of installedPackages(path.join(bundleDir, 'node_modules'))) {
      if (os) expect(platforms.filter((p) => !os.includes(p)), `${name} is for ${os.join(', ')}`).toEqual([]);
      if (platforms.length > 1) expect(addonsBuiltHere(dir), `${name} has an addon built for this machine`).toEqual([]);
    }
    // Production dependencies only, the SQLite driver among them; none of the package's tests.
    expect(fs.existsSync(path.join(bundleDir, 'node_modules', 'better-sqlite3', 'package.json'))).toBe(true);
    for (const dev of ['vitest', '@anthropic-ai/mcpb', 'playwright-core']) expect(fs.existsSync(path.join(bundleDir, 'node_modules', dev))).toBe(false);
    expect(fs.existsSync(path.join(bundleDir, 'test'))).toBe(false);
  });

  it('without a data folder a host does not start it; secrets left empty reach it unset, not as placeholders', async () => {
    expect(await resolveAsHost(manifest, bundleDir, {})).toBeUndefined();
    const config = (await resolveAsHost(manifest, bundleDir, { data_dir: dataDir })) as McpConfig;
    expect(config.args).toEqual([`${bundleDir}/dist/src/main.js`, 'mcp']);
    expect(config.env).toEqual({ GATEWAY_DATA_DIR: dataDir, AGENT_SECRET: '', GATEWAY_API_KEY: '' });
  });

  it('lists over stdio exactly the tools and prompts its manifest names, and its tools work', async () => {
    const client = await start({ data_dir: dataDir });
    try {
      const tools = (await everyTool(client)).map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) }));
      expect(tools).toEqual(manifest.tools);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(manifest.prompts!.map((p) => p.name));

      const registered = await client.callTool({ name: 'agent_register', arguments: { handle: 'bundle-agent' } });
      expect(registered.isError).toBeFalsy();
      credentials.secret = (registered.structuredContent as { secret: string }).secret;
      expect(credentials.secret).toMatch(/^ags_/);
      expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBe(true); // no secret given yet
      // Off the default list, one step away (tools_find), and callable by name.
      const issued = await client.callTool({ name: 'keys_issue', arguments: { email: 'bundle@example.com' } });
      expect(issued.isError).toBeFalsy();
      credentials.key = (issued.structuredContent as { key: string }).key;
      expect(credentials.key).toMatch(/^agk_live_/);
    } finally {
      await client.close();
    }
  });

  it('acts, after a restart on the same data folder, as the agent and with the key given in user_config', async () => {
    expect(credentials.secret).not.toBe('');
    const client = await start({ data_dir: dataDir, agent_secret: credentials.secret, api_key: credentials.key });
    try {
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.isError).toBeFalsy();
      expect((me.structuredContent as { handle: string }).handle).toBe('bundle-agent');
      const usage = await client.callTool({ name: 'keys_usage', arguments: {} });
      expect(usage.isError).toBeFalsy();
      expect(usage.structuredContent).toMatchObject({ tier: 'free', used: expect.any(Number) });
    } finally {
      await client.close();
    }
  });

  it('ends with an error naming the data folder when it is not a folder, instead of hanging', async () => {
    const notAFolder = path.join(scratch, 'not-a-folder');
    fs.writeFileSync(notAFolder, 'a file picked by mistake\n');
    const failure = await start({ data_dir: notAFolder }).then(
      async (client) => {
        await client.close();
        return undefined;
      },
      (err: Error & { stderr?: string }) => err,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.stderr).toContain(notAFolder);
  });
});
