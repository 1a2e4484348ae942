// Follows the static imports of the project's TypeScript from some entries (a type-only import is erased; anything
// else loads its module, verbatimModuleSyntax keeping even `import { type X }`) and names the chain to any of some
// packages it reaches: what start-up loads (test/startup-imports.test.ts, test/install/engines.test.ts).
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Module specifiers a TypeScript file loads when it is evaluated. */
function loads(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  return [...src.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? m[2]!);
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2) : spec.split('/').slice(0, 1)).join('/');

/** The project's modules (relative paths) the entries load, and each chain that ends in one of `packages`. */
export function reach(entries: string[], packages: readonly string[]): { modules: Set<string>; reached: string[] } {
  const from = new Map<string, string | null>(entries.map((e) => [path.join(ROOT, e), null]));
  const queue = [...from.keys()];
  const reached: string[] = [];
  const chain = (f: string | null): string[] => (f ? [...chain(from.get(f) ?? null), path.relative(ROOT, f)] : []);
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
  return { modules: new Set([...from.keys()].map((f) => path.relative(ROOT, f))), reached };
}

/** What `serve` and `mcp` load while starting: the entry, the store and the gateway with every tool module. */
export const START_UP = ['src/main.ts', 'src/store/open.ts', 'src/app.ts'];
