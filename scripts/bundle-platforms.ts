// Which platforms a staged bundle runs on, read from what npm installed rather than assumed. A package npm chose for
// this machine (one with `os`, `cpu` or `libc` in its package.json) or a native addon compiled here (a .node file
// outside a prebuilds/ folder) ties the bundle to this platform. Otherwise every native addon must ship a prebuilt
// binary for a platform, on x64 and arm64 both, for the bundle to claim that platform.
import fs from 'node:fs';
import path from 'node:path';

export type Platform = 'darwin' | 'win32' | 'linux';

/** The machine a bundle is built on: npm installs the native packages it picks by platform for this one. */
export interface Target {
  platform: Platform;
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

const PLATFORMS: Platform[] = ['darwin', 'win32', 'linux'];
const ARCHS = ['x64', 'arm64'];

export interface Coverage {
  platforms: Platform[];
  /** What keeps the bundle to fewer platforms, one line each (empty when it covers all three). */
  limits: string[];
}

/** Package folders under a node_modules folder, nested ones included. */
function packages(nodeModules: string): string[] {
  if (!fs.existsSync(nodeModules)) return [];
  return fs.readdirSync(nodeModules).flatMap((name) => {
    if (name.startsWith('.')) return [];
    const dir = path.join(nodeModules, name);
    if (name.startsWith('@')) return packages(dir);
    if (!fs.existsSync(path.join(dir, 'package.json'))) return [];
    return [dir, ...packages(path.join(dir, 'node_modules'))];
  });
}

/** The package's native addons (.node files), relative to it with forward slashes, its own node_modules aside. */
function addons(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((entry) => {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : addons(dir, child);
    return entry.name.endsWith('.node') ? [child] : [];
  });
}

const prebuiltFor = (files: string[], platform: Platform): boolean =>
  ARCHS.every((arch) => files.some((f) => new RegExp(`(^|/)${platform}-[^/]*${arch}`).test(f)));

export function platformsCovered(stage: string, here: Platform): Coverage {
  const nodeModules = path.join(stage, 'node_modules');
  const limits: string[] = [];
  let platforms = [...PLATFORMS];
  for (const dir of packages(nodeModules)) {
    // The folder names the package as installed (an npm alias such as better-sqlite3-legacy included).
    const name = path.relative(nodeModules, dir).split(path.sep).join('/');
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { os?: string[]; cpu?: string[]; libc?: string[] };
    const files = addons(dir);
    const compiled = files.filter((f) => !f.split('/').includes('prebuilds'));
    if (pkg.os || pkg.cpu || pkg.libc) limits.push(`${name} is the build npm picked for this machine (${[pkg.os, pkg.cpu, pkg.libc].filter(Boolean).join(' ')})`);
    else if (compiled.length) limits.push(`${name} was compiled on this machine (${compiled[0]})`);
    else if (files.length) platforms = platforms.filter((p) => prebuiltFor(files, p));
  }
  if (!limits.length && !platforms.includes(here)) limits.push(`the prebuilt native addons do not cover ${here} on x64 and arm64`);
  return { platforms: limits.length ? [here] : platforms, limits };
}
