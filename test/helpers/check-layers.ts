// Runs the layer rules of .dependency-cruiser.cjs over the project with dependency-cruiser's own API (parsing
// with swc, type-only imports included) and gives each violation back as one line.
import path from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

/** The folders holding the project's TypeScript. */
const TREE = ['src', 'tools', 'rest', 'resources', 'prompts', 'test', 'bench', 'scripts'];

export interface LayerCheck {
  /** Modules dependency-cruiser cruised. */
  modules: number;
  /** Every edge between the project's own modules: `a.ts → b.ts`. */
  edges: Set<string>;
  /** Imports dependency-cruiser could not resolve (none, unless its resolution is set up wrong). */
  unresolved: string[];
  /** One line per violation: `rule: a.ts → b.ts`, a cycle as its whole path. */
  violations: string[];
}

const describeViolation = (v: IViolation): string =>
  `${v.rule.name}: ${[v.from, ...(v.cycle?.length ? v.cycle.map((c) => c.name) : [v.to])].join(' → ')}`;

export async function checkLayers(root: string): Promise<LayerCheck> {
  const options = await extractDepcruiseOptions(path.join(root, '.dependency-cruiser.cjs'));
  const cwd = process.cwd();
  process.chdir(root); // the config's paths and tsconfig are relative to the project root
  try {
    const { output } = await cruise(TREE, { ...options, validate: true });
    const { modules, summary } = output as ICruiseResult;
    return {
      modules: modules.length,
      edges: new Set(modules.flatMap((m) => m.dependencies.filter((d) => !d.coreModule && !d.resolved.startsWith('node_modules/')).map((d) => `${m.source} → ${d.resolved}`))),
      unresolved: modules.flatMap((m) => m.dependencies.filter((d) => d.couldNotResolve).map((d) => `${m.source}: ${d.module}`)),
      violations: summary.violations.map(describeViolation),
    };
  } finally {
    process.chdir(cwd);
  }
}
