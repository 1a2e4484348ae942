// The optional engines (src/engines.ts, docs/decisions/light-install.md): package.json declares each as an optional
// peer (left out of a plain install) and a devDependency (installed by `npm ci` in a checkout), and nothing a
// gateway loads while starting imports one; the 503 names the packages and the command.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, engineNotInstalled, installCommand, missingPackages } from '../../src/engines.js';
import { reach, ROOT as root, START_UP } from '../helpers/import-graph.js';

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

it('nothing a gateway loads while starting (serve or mcp, every tool module) imports an optional engine', () => {
  const r = reach(START_UP, engined);
  expect(r.modules.has('tools/commercial/review/tool.ts')).toBe(true); // the tools were followed
  expect(r.reached).toEqual([]);
});
