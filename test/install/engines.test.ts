// The optional engines (src/engines.ts, docs/decisions/light-install.md): package.json declares each as an optional
// peer (left out of a plain install) and a devDependency (installed by `npm ci` in a checkout), and nothing a
// gateway loads while starting imports one; the 503 names the packages and the command.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, engineNotInstalled, installCommand, missingPackages } from '../../src/engines.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, any>>;
const engined: string[] = [...new Set(Object.values(ENGINES).flatMap((e): string[] => [...e.packages]))].sort();
/** Their peer range of ESLint is older than the ESLint the review runs: declared as peers, npm would refuse the install. */
const NOT_PEERS = ['@microsoft/eslint-plugin-sdl', 'eslint-plugin-react'];

describe('package.json', () => {
  it('declares every engine package as an optional peer and a devDependency, never a dependency', () => {
    expect(engined.filter((p) => p in pkg.dependencies)).toEqual([]);
    expect(engined.filter((p) => !(p in pkg.devDependencies))).toEqual([]);
    expect(engined.filter((p) => !(p in pkg.peerDependencies))).toEqual(NOT_PEERS);
    for (const [p, range] of Object.entries(pkg.peerDependencies)) {
      expect(engined, `${p} is a peer of no engine`).toContain(p);
      expect(pkg.peerDependenciesMeta[p]).toEqual({ optional: true });
      expect(pkg.devDependencies[p]).toBe(range);
    }
    expect(pkg.optionalDependencies).toBeUndefined();
    expect(pkg.devDependencies['better-sqlite3-legacy']).toBeDefined();
  });

  it('ships what the runtime reads and no tests', () => {
    expect(pkg.files).toEqual(expect.arrayContaining(['dist/', 'src/store/migrations/*.sql', 'src/store/pg-migrations/*.sql', 'resources/content/*.json', 'resources/views/*.html']));
    expect(pkg.files.some((f: string) => f.startsWith('test'))).toBe(false);
  });
});

describe('the engine check', () => {
  it('finds installed packages and names the missing ones', () => {
    expect(missingPackages(['zod', '@modelcontextprotocol/server', 'no-such-package-light-install', '@nope/not-here'])).toEqual(['no-such-package-light-install', '@nope/not-here']);
  });

  it('answers 503 engine_not_installed with the packages and one command with package.json’s ranges', () => {
    const e = engineNotInstalled('seo', ['lighthouse']);
    expect(e.status).toBe(503);
    expect(e.toBody().error).toEqual({
      code: 'engine_not_installed',
      message: expect.stringContaining('lighthouse'),
      engine: 'seo',
      packages: ['lighthouse', 'chrome-launcher'],
      missing: ['lighthouse'],
      install: installCommand('seo'),
    });
    // --force only where the review's plugins are installed (as in this checkout): npm then needs it for any install.
    expect(installCommand('seo')).toMatch(/^npm install (--force )?lighthouse@/);
    expect(installCommand('seo')).toContain(` lighthouse@${pkg.peerDependencies.lighthouse} chrome-launcher@${pkg.peerDependencies['chrome-launcher']}`);
    expect(e.message).toContain('Nothing was charged');
    // The review's plugins need --force beside its ESLint, whatever else is installed.
    expect(installCommand('review')).toMatch(new RegExp(`^npm install --force eslint@\\${pkg.devDependencies.eslint}`));
    expect(installCommand('review')).toContain(`eslint-plugin-react@${pkg.devDependencies['eslint-plugin-react']}`);
  });
});

/** Module specifiers a TypeScript file loads when evaluated (a type-only import is erased). */
function loads(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  return [...src.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? m[2]!);
}
const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2) : spec.split('/').slice(0, 1)).join('/');

it('nothing a gateway loads while starting (serve or mcp, every tool module) imports an optional engine', () => {
  const entries = ['src/main.ts', 'src/store/open.ts', 'src/app.ts'].map((e) => path.join(root, e));
  const from = new Map<string, string | null>(entries.map((e) => [e, null]));
  const queue = [...entries];
  const reached: string[] = [];
  const chain = (f: string | null): string[] => (f ? [...chain(from.get(f) ?? null), path.relative(root, f)] : []);
  while (queue.length) {
    const file = queue.shift()!;
    for (const spec of loads(file)) {
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
        if (!from.has(target) && fs.existsSync(target)) {
          from.set(target, file);
          queue.push(target);
        }
      } else if (engined.includes(packageOf(spec))) reached.push([...chain(file), spec].join(' → '));
    }
  }
  expect(from.has(path.join(root, 'tools/commercial/review/tool.ts'))).toBe(true); // the tools were followed
  expect(reached).toEqual([]);
});
