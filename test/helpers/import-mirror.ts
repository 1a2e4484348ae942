// The project's import graph written as JavaScript that dependency-cruiser parses with its own parser (acorn):
// one file per module at the same relative path, named .js as the imports already name it, holding nothing
// but the module's relative imports. Imports of packages and node: builtins are left out: the layer rules
// are about the project's own modules.
import fs from 'node:fs';
import path from 'node:path';
import type { SourceModule } from './import-graph.js';

export interface ImportMirror {
  dir: string;
  /** Project path of each mirror module, e.g. `src/app.js` → `src/app.ts`. */
  sourceOf: Map<string, string>;
  /** `from\0specifier` of every type-only import, for the report (dependency-cruiser sees plain imports). */
  typeOnly: Set<string>;
}

const isRelative = (specifier: string): boolean => specifier.startsWith('./') || specifier.startsWith('../');

/** `x.ts` → `x.js`, `x.mts` → `x.mjs`, `x.cts` → `x.cjs`. */
const mirrorName = (file: string): string => file.replace(/\.([cm]?)ts$/, '.$1js');

export function writeImportMirror(dir: string, modules: SourceModule[]): ImportMirror {
  const sourceOf = new Map<string, string>();
  const typeOnly = new Set<string>();
  for (const m of modules) {
    const name = mirrorName(m.file);
    sourceOf.set(name, m.file);
    const lines = m.imports
      .filter((i) => isRelative(i.specifier))
      .map((i) => {
        if (i.typeOnly) typeOnly.add(`${name}\0${i.specifier}`);
        return i.dynamic ? `import(${JSON.stringify(i.specifier)});` : `import ${JSON.stringify(i.specifier)};`;
      });
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), lines.join('\n') + '\n');
  }
  return { dir, sourceOf, typeOnly };
}
