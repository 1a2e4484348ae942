// `npm run bundle`: an MCP Bundle (.mcpb) of the stdio server, which Claude Desktop and other MCPB hosts install in
// one click, for the platforms its installed native parts allow: all three, or this machine's alone
// (docs/decisions/mcp-bundle.md).
//   tsx scripts/bundle.ts [--deps install|checkout] [--out <dir>] [--no-build] [--keep-staging]
// --deps install (default) installs the production dependencies afresh from the lockfile; checkout copies the
// checkout's installed ones (the same tree, in seconds). Prints the bundle's path and size as the last line (JSON).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleName, composeManifest, listServer, readPackage } from './bundle-manifest.js';
import { platformsCovered, targetLabel, thisTarget } from './bundle-platforms.js';
import { nodeInRange } from './bundle-node.js';
import { ROOT, runMcpb, runNpm } from './bundle-run.js';
import { stageBundle, type DepsSource } from './bundle-stage.js';

const { values } = parseArgs({
  options: {
    deps: { type: 'string', default: 'install' },
    out: { type: 'string', default: path.join(ROOT, 'dist-bundle') },
    'no-build': { type: 'boolean', default: false },
    'keep-staging': { type: 'boolean', default: false },
  },
});
if (values.deps !== 'install' && values.deps !== 'checkout') throw new Error(`--deps is install or checkout, not ${values.deps}`);
const deps: DepsSource = values.deps;

const started = performance.now();
const seconds = () => Math.round((performance.now() - started) / 100) / 10;
if (!values['no-build']) runNpm(['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });

const pkg = readPackage();
const target = thisTarget();
const node = nodeInRange(pkg.engines.node);
if (!node) {
  throw new Error(
    `The bundle's server runs on Node ${pkg.engines.node}, and listing its tools needs one: run this with such a Node, ` +
      'or unpack one with scripts/node-from-registry.sh 24',
  );
}
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-gateway-bundle-'));
const stage = path.join(scratch, 'agent-gateway');
fs.mkdirSync(stage);
try {
  console.log(`Staging agent-gateway ${pkg.version} for ${targetLabel(target)} (dependencies: ${deps}) in ${stage}`);
  stageBundle(stage, scratch, deps);
  const stagedAt = seconds();
  const coverage = platformsCovered(stage, target.platform);
  const listing = await listServer(stage, node);
  fs.writeFileSync(path.join(stage, 'manifest.json'), `${JSON.stringify(composeManifest(pkg, target, coverage, listing), null, 2)}\n`);
  runMcpb(['validate', path.join(stage, 'manifest.json')]);
  fs.mkdirSync(values.out, { recursive: true });
  const bundle = path.join(path.resolve(values.out), bundleName(pkg, target, coverage));
  // The CLI lists every file it packs; its closing report has the sizes.
  const packed = runMcpb(['pack', stage, bundle], { quiet: true }).stdout;
  const summary = {
    bundle,
    bytes: fs.statSync(bundle).size,
    unpacked: /unpacked size: (\S+)/.exec(packed)?.[1],
    files: Number(/total files: (\d+)/.exec(packed)?.[1]),
    tools: listing.tools.length,
    prompts: listing.prompts.length,
    platforms: coverage.platforms,
    built_on: targetLabel(target),
    deps,
    staged_s: stagedAt,
    total_s: seconds(),
  };
  console.log(`Bundle: ${bundle}: ${(summary.bytes / 1e6).toFixed(1)} MB (${summary.unpacked} unpacked, ${summary.files} files); ${summary.tools} tools, ${summary.prompts} prompts; ${summary.total_s} s`);
  console.log(JSON.stringify(summary));
} finally {
  if (values['keep-staging']) console.log(`Staging folder kept: ${stage}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}
