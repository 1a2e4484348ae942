// Start-up loads what serving needs and no more (docs/decisions/startup.md): the packages listed here load with the
// first request that uses them, and the database's threads load no validation library. The test follows the static
// imports from each entry (a type-only import is erased; anything else loads its module, verbatimModuleSyntax
// keeping even `import { type X }`) and names the chain to any listed package it reaches.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const LAZY = [
  '@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@resvg/resvg-js', '@x402/core', '@x402/evm', 'ajv', 'ajv-formats', 'cheerio',
  'compromise', 'date-holidays', 'eventsource-parser', 'fast-xml-parser', 'jose', 'lighthouse', 'linkedom', 'minisearch', 'node-cron',
  'oidc-provider', 'pg', 'stripe', 'syllable', 'undici', 'unpdf', 'vega', 'vega-lite', 'viem',
];

/** Module specifiers a TypeScript file loads when it is evaluated. */
function loads(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1] ?? m[2]);
  return out;
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2) : spec.split('/').slice(0, 1)).join('/');

/** The project's modules the entries load, and each chain that ends in one of `packages`. */
function reach(entries: string[], packages: string[]): { modules: number; reached: string[] } {
  const from = new Map<string, string | null>(entries.map((e) => [path.join(root, e), null]));
  const queue = [...from.keys()];
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
      } else if (!spec.startsWith('node:') && packages.includes(packageOf(spec))) {
        reached.push([...chain(file), spec].join(' → '));
      }
    }
  }
  return { modules: from.size, reached };
}

describe('start-up imports', () => {
  it('reach none of the packages loaded on first use', () => {
    // What `serve` loads: its entry, and the modules it imports while starting.
    const r = reach(['src/main.ts', 'src/store/open.ts', 'src/app.ts'], LAZY);
    expect(r.modules).toBeGreaterThan(300); // the graph was followed, not cut short
    expect(r.reached).toEqual([]);
  });

  it('of the database threads load no zod (nor anything above)', () => {
    const r = reach(['src/store/writer-thread.ts', 'src/store/reader-thread.ts', 'src/store/checkpoint-thread.ts'], ['zod', ...LAZY]);
    expect(r.modules).toBeGreaterThan(5);
    expect(r.reached).toEqual([]);
  });
});
