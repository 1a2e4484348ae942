// The bundle's folder before packing: the package exactly as `npm pack` makes it (dist/ and the files the server
// reads at run time), its production dependencies beside it in node_modules/, and bundle/.mcpbignore.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, run, runNpm } from './bundle-run.js';

/**
 * Where the production dependencies come from:
 * - install: `npm ci --omit=dev` in the staging folder from the checkout's lockfile, a clean install as a user's
 *   machine would make it (minutes: every package is fetched or read from npm's cache, install scripts run);
 * - checkout: the packages `npm ls --omit=dev` names in the checkout's node_modules (installed from the same
 *   lockfile), hard-linked or copied. The same tree in seconds and offline; the test builds its bundle this way.
 */
export type DepsSource = 'install' | 'checkout';

export const ENTRY = path.join('dist', 'src', 'main.js');

/** Unpacks `npm pack`'s tarball of the checkout into `stage` (which must be empty). */
function unpackPackage(stage: string, scratch: string): void {
  const packed = runNpm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: ROOT, quiet: true });
  const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
  run('tar', ['-xzf', path.join(scratch, filename), '-C', stage, '--strip-components=1']);
  if (!fs.existsSync(path.join(stage, ENTRY))) throw new Error(`${ENTRY} is not in the package: run npm run build first`);
  // The root's lifecycle scripts are development steps (prepare builds with tsc, a devDependency); `npm ci` in the
  // staging folder would run them. Dependencies' own install scripts still run.
  const manifestPath = path.join(stage, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  delete pkg.scripts;
  fs.writeFileSync(manifestPath, `${JSON.stringify(pkg, null, 2)}\n`);
}

function installDependencies(stage: string): void {
  fs.copyFileSync(path.join(ROOT, 'package-lock.json'), path.join(stage, 'package-lock.json'));
  runNpm(['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: stage, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Package folders of the checkout's production tree, relative to the checkout (node_modules/…), as npm computes it. */
export function productionTree(): string[] {
  // `npm ls` exits 1 when it has remarks about the tree (an "invalid" peer range, say) and still lists it.
  const listed = runNpm(['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, quiet: true, allowFailure: true });
  const folders = listed.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((abs) => path.relative(ROOT, abs))
    .filter((rel) => rel !== '');
  if (!folders.length) throw new Error(`npm ls --omit=dev listed no packages (run npm ci first)\n${listed.stderr}`);
  const outside = folders.filter((rel) => rel.split(path.sep)[0] !== 'node_modules');
  if (outside.length) throw new Error(`packages outside node_modules (linked?) cannot be bundled: ${outside.join(', ')}`);
  return folders;
}

/**
 * Mirrors a package folder into the staging folder with hard links (the staging folder is only read, then packed),
 * or copies where links cannot be made (another file system). Symbolic links are followed.
 */
function linkTree(from: string, to: string, skip: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    if (src === skip) continue;
    const dst = path.join(to, entry.name);
    const real = entry.isSymbolicLink() ? fs.realpathSync(src) : src;
    if (fs.statSync(real).isDirectory()) linkTree(real, dst, skip);
    else {
      try {
        fs.linkSync(real, dst);
      } catch {
        fs.copyFileSync(real, dst);
      }
    }
  }
}

function copyDependencies(stage: string): void {
  for (const rel of productionTree()) {
    const from = path.join(ROOT, rel);
    // Nested node_modules hold packages of their own, listed (or left out as dev-only) by npm ls.
    linkTree(from, path.join(stage, rel), path.join(from, 'node_modules'));
  }
}

/** Fills the empty folder `stage` with the package and its production dependencies; `scratch` holds the tarball. */
export function stageBundle(stage: string, scratch: string, deps: DepsSource): void {
  unpackPackage(stage, scratch);
  if (deps === 'install') installDependencies(stage);
  else copyDependencies(stage);
  fs.copyFileSync(path.join(ROOT, 'bundle', '.mcpbignore'), path.join(stage, '.mcpbignore'));
}
