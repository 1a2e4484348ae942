// Runs the layer rules of .dependency-cruiser.cjs over the project: the TypeScript 7 compiler reads every
// module's imports, they are mirrored as JavaScript in a temporary directory, dependency-cruiser resolves and
// judges that mirror, and each violation comes back as one line naming the project's own files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IModule, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { readProjectImports } from './import-graph.js';
import { writeImportMirror, type ImportMirror } from './import-mirror.js';

export interface LayerCheck {
  /** Modules dependency-cruiser cruised. */
  modules: number;
  /** Type-only imports between the project's modules as dependency-cruiser resolved them: `a.ts → b.ts`. */
  typeOnlyEdges: string[];
  /** Relative imports dependency-cruiser could not resolve (none, unless the mirror is wrong). */
  unresolved: string[];
  /** One line per violation: `rule: a.ts → b.ts`, a cycle as its whole path; `(type)` marks a type-only step. */
  violations: string[];
  ms: number;
}

/** `from\0to` of each resolved edge → whether every import making it is type-only. */
function edgeKinds(modules: IModule[], mirror: ImportMirror): Map<string, boolean> {
  const kinds = new Map<string, boolean>();
  for (const m of modules) {
    for (const d of m.dependencies) {
      const key = `${m.source}\0${d.resolved}`;
      const typeOnly = mirror.typeOnly.has(`${m.source}\0${d.module}`);
      kinds.set(key, (kinds.get(key) ?? true) && typeOnly);
    }
  }
  return kinds;
}

function describeViolation(v: IViolation, kinds: Map<string, boolean>, project: (f: string) => string): string {
  const step = (from: string, to: string) => `${project(to)}${kinds.get(`${from}\0${to}`) ? ' (type)' : ''}`;
  const path = v.cycle?.length ? [v.from, ...v.cycle.map((c) => c.name)] : [v.from, v.to];
  return `${v.rule.name}: ${project(path[0])} → ${path.slice(1).map((to, i) => step(path[i], to)).join(' → ')}`;
}

export async function checkLayers(root: string): Promise<LayerCheck> {
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  try {
    const mirror = writeImportMirror(dir, readProjectImports(root));
    const options = await extractDepcruiseOptions(path.join(root, '.dependency-cruiser.cjs'));
    const tops = [...new Set([...mirror.sourceOf.keys()].map((f) => f.split('/')[0]))];
    const { output } = await cruise(tops, { ...options, baseDir: dir, validate: true });
    const { modules, summary } = output as ICruiseResult;
    const project = (f: string) => mirror.sourceOf.get(f) ?? f;
    const kinds = edgeKinds(modules, mirror);
    return {
      modules: modules.length,
      typeOnlyEdges: [...kinds].filter(([, typeOnly]) => typeOnly).map(([key]) => key.split('\0').map(project).join(' → ')),
      unresolved: modules.flatMap((m) => m.dependencies.filter((d) => d.couldNotResolve).map((d) => `${project(m.source)}: ${d.module}`)),
      violations: summary.violations.map((v) => describeViolation(v, kinds, project)),
      ms: Math.round(performance.now() - started),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
